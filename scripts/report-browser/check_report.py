"""Checks `assay validate --report` as a person would: in a real browser (headless Chromium, driven
by chromedriver through selenium).

    check_report.py --assay PATH --work DIR [--records N] [--screenshot PNG]

1. Generates N client records (../shared/bench/gen_data.py: about 3% invalid, with ground truth)
   plus a file of hostile records (HTML and script in keys and values, a secret to redact), and runs
   `assay validate --summary --report` on them.
2. Opens the page in Chromium, light and dark, at a desktop and a narrow width; fails on any console
   message of level warning or worse (a Content-Security-Policy violation is one), on any network
   request other than the page itself, and if a script from the data ran.
3. Checks the page's numbers against the JSON summary: the headline totals, every table row's path,
   errors and documents in order, the histogram, the "other" row; sorts the table by clicking.
4. A second run with 10,000 distinct failing paths: at most 500 table rows, the rest one counted row.
5. Takes screenshots (light and dark) into DIR, and to --screenshot when given (the README's).
"""

import argparse
import base64
import json
import os
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(os.path.dirname(REPOSITORY), "shared", "bench")


def fail(message):
    print(f"check_report: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def run_assay(assay, arguments):
    result = subprocess.run([assay] + arguments, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        fail(f"assay {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result


def hostile_records(path):
    records = [
        {"id": "<script>window.__assayPwned = 1</script>", "name": "x", "email": "a@b.c",
         "<img src=x onerror=\"window.__assayPwned=2\">": "</pre><script>window.__assayPwned=3</script>"},
        {"name": "\"><svg onload=window.__assayPwned=4>", "email": "not an email",
         "password": "correct horse battery staple"},
    ]
    with open(path, "w", encoding="utf-8") as stream:
        for record in records:
            stream.write(json.dumps(record, ensure_ascii=False) + "\n")


def browser(width, dark):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},1000", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    if dark:
        driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    return driver


def check_clean(driver, page_url, loaded=True):
    """No console message of level warning or worse, no request but the page, no injected script.
    `loaded`: the page was (re)loaded since the last check, so its own request must be in the log."""
    messages = [entry for entry in driver.get_log("browser") if entry["level"] in ("WARNING", "SEVERE")]
    expect(not messages, f"console messages: {messages}")
    requests = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    others = [url for url in requests if url != page_url]
    if loaded:
        expect(requests, "the performance log saw no request at all (the check would prove nothing)")
    expect(not others, f"network requests besides the page: {others}")
    expect(driver.execute_script("return window.__assayPwned === undefined"), "a script from the data ran")


def luminance(rgb):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = (channel(v) for v in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def rgb(css):
    """(r, g, b) of a computed `rgb(…)`/`rgba(…)` colour."""
    return tuple(int(float(part)) for part in css[css.index("(") + 1:-1].split(",")[:3])


def check_contrast(driver, dark):
    """WCAG contrast of the page's text against what it stands on: 4.5:1 for text, 3:1 for the large
    figures and the bars (WCAG 2.1, 1.4.3 and 1.4.11)."""
    def style(selector, prop):
        return driver.execute_script(
            "var e=document.querySelector(arguments[0]);return e?getComputedStyle(e)[arguments[1]]:null",
            selector, prop)
    page = style("body", "backgroundColor")
    card = style(".card", "backgroundColor")
    pairs = [
        ("text", style("body", "color"), page, 4.5),
        ("muted text", style(".meta", "color"), page, 4.5),
        ("card label", style(".card .label", "color"), card, 4.5),
        ("invalid figure", style(".card.bad .value", "color"), card, 3.0),
        ("link", style("a", "color"), page, 4.5),
        ("chart label", style("svg text.axis", "fill"), page, 4.5),
        ("chart count", style("svg text.count", "fill"), page, 4.5),
        ("bar", style("svg rect.bar", "fill"), page, 3.0),
        ("marked value", style("mark", "color"), style("mark", "backgroundColor"), 4.5),
    ]
    for name, foreground, background, needed in pairs:
        expect(foreground and background, f"{name}: no element to measure")
        lighter, darker = sorted((luminance(rgb(foreground)), luminance(rgb(background))), reverse=True)
        ratio = (lighter + 0.05) / (darker + 0.05)
        expect(ratio >= needed, f"{name} ({'dark' if dark else 'light'}): contrast {ratio:.2f}:1, below {needed}:1 "
                                f"({foreground} on {background})")


def metric(driver, name):
    elements = driver.find_elements(By.CSS_SELECTOR, f'[data-metric="{name}"]')
    expect(len(elements) == 1, f"the page has {len(elements)} '{name}' figures")
    return int(elements[0].get_attribute("data-value")), elements[0].text


def top_screenshot(driver, path, height=1400):
    """The top of the page (the README's picture)."""
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": 1280, "height": height, "scale": 1}})
    with open(path, "wb") as stream:
        stream.write(base64.b64decode(shot["data"]))


def full_screenshot(driver, path):
    height = driver.execute_script("return document.documentElement.scrollHeight")
    width = driver.execute_script("return document.documentElement.scrollWidth")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": min(height, 6000), "deviceScaleFactor": 1, "mobile": False})
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    with open(path, "wb") as stream:
        stream.write(base64.b64decode(shot["data"]))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def check_page(page, summary, work, screenshot):
    page_url = "file://" + os.path.abspath(page)
    for width, dark in ((1280, False), (1280, True), (420, False)):
        driver = browser(width, dark)
        try:
            driver.get(page_url)
            check_clean(driver, page_url)
            totals = summary["totals"]
            for name, expected in (("documents", totals["documents"]), ("valid", totals["valid"]),
                                   ("invalid", totals["invalid"]), ("errors", totals["errors"])):
                value, text = metric(driver, name)
                expect(value == expected, f"{name}: the page says {value}, the summary {expected}")
                expect(text.replace(",", "") == str(expected), f"{name}: shown as {text!r}, expected {expected}")
            rows = driver.find_elements(By.CSS_SELECTOR, "#path-table tbody tr[data-path]")
            listed = summary["paths"][:len(rows)]
            expect(len(rows) == min(len(summary["paths"]), 500), f"{len(rows)} rows for {len(summary['paths'])} paths")
            for row, path in zip(rows, listed):
                expect(row.get_attribute("data-path") == path["path"], f"row {row.get_attribute('data-path')!r}")
                expect(int(row.get_attribute("data-errors")) == path["errors"], f"errors of {path['path']}")
                expect(int(row.get_attribute("data-documents")) == path["documents"], f"documents of {path['path']}")
                shown = row.find_elements(By.TAG_NAME, "td")[0].text
                expect(shown == (path["path"] or "/"), f"the path cell shows {shown!r} for {path['path']!r}")
            buckets = driver.find_elements(By.CSS_SELECTOR, "svg.histogram g[data-bucket]")
            expect([int(b.get_attribute("data-documents")) for b in buckets]
                   == [b["documents"] for b in summary["errorsPerDocument"]], "the histogram")
            check_contrast(driver, dark)
            # Nothing wider than the window: the table scrolls inside its own box.
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            expect(overflow <= 0, f"the page is {overflow} pixels wider than a {width}-pixel window")
            # Colours follow the scheme: the page's background is dark in dark mode.
            background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
            channels = [int(part) for part in background[background.index("(") + 1:-1].split(",")[:3]]
            expect((sum(channels) < 150) == dark, f"background {background} with dark={dark}")
            if width == 1280 and not dark:
                # Sorting: the errors column ascending, then the path column.
                header = driver.find_element(By.CSS_SELECTOR, '#path-table th[data-column="1"] button')
                header.click()
                values = [int(r.get_attribute("data-errors"))
                          for r in driver.find_elements(By.CSS_SELECTOR, "#path-table tbody tr[data-path]")]
                expect(values == sorted(values), "sorted by errors, ascending")
                driver.find_element(By.CSS_SELECTOR, '#path-table th[data-column="0"] button').click()
                driver.find_element(By.CSS_SELECTOR, '#path-table th[data-column="0"] button').click()
                paths = [r.get_attribute("data-path")
                         for r in driver.find_elements(By.CSS_SELECTOR, "#path-table tbody tr[data-path]")]
                expect(len(paths) == len(rows), "sorting lost rows")
                driver.get(page_url)
                # Examples: the failing values are marked.
                marks = driver.find_elements(By.CSS_SELECTOR, "details.example[open] mark")
                expect(marks, "no failing value is marked in the open examples")
                # Printing opens every example, and closes again after; the page prints to PDF.
                closed = len(driver.find_elements(By.CSS_SELECTOR, "details.example:not([open])"))
                expect(closed > 0, "every example is open already: the print check would prove nothing")
                driver.execute_script("window.dispatchEvent(new Event('beforeprint'))")
                expect(not driver.find_elements(By.CSS_SELECTOR, "details.example:not([open])"),
                       "examples stay closed for printing")
                driver.execute_script("window.dispatchEvent(new Event('afterprint'))")
                expect(len(driver.find_elements(By.CSS_SELECTOR, "details.example:not([open])")) == closed,
                       "the examples closed before printing are not closed again")
                pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": False})["data"])
                expect(pdf.startswith(b"%PDF") and len(pdf) > 10000, "the page did not print to PDF")
                with open(os.path.join(work, "report.pdf"), "wb") as stream:
                    stream.write(pdf)
            name = f"report-{'dark' if dark else 'light'}-{width}.png"
            full_screenshot(driver, os.path.join(work, name))
            if screenshot and width == 1280 and not dark:
                top_screenshot(driver, screenshot)
            check_clean(driver, page_url, loaded=width == 1280 and not dark)
        finally:
            driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assay", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--screenshot", default=None)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(BENCH, "gen_data.py"), "--records", str(args.records),
                    "--out", args.work], check=True, stdout=subprocess.DEVNULL)
    data = os.path.join(args.work, f"clients-{args.records}.ndjson")
    hostile = os.path.join(args.work, "hostile.ndjson")
    hostile_records(hostile)
    # Paths as a person types them (relative to the repository, where the script runs): the page shows them.
    schema = os.path.relpath(os.path.join(BENCH, "client.schema.json"))
    summary_path = os.path.join(args.work, "summary.json")
    page = os.path.join(args.work, "report.html")
    run_assay(args.assay, ["validate", "-s", schema, "--quiet", "--results", os.devnull, "--redact", "/password",
                           "--summary", summary_path, "--report", page, data, hostile])
    with open(summary_path, encoding="utf-8") as stream:
        summary = json.load(stream)
    expect(summary["totals"]["documents"] == args.records + 2, "documents in the summary")
    with open(page, encoding="utf-8") as stream:
        html = stream.read()
    expect("correct horse" not in html, "the redacted password is on the page")
    check_page(page, summary, args.work, args.screenshot)

    # 10,000 distinct failing paths (keys that are ids).
    many = os.path.join(args.work, "ids.ndjson")
    with open(many, "w", encoding="utf-8") as stream:
        for index in range(10000):
            stream.write(json.dumps({f"key-{index}": index, "age": "old" if index % 3 == 0 else 1}) + "\n")
    ids_schema = os.path.join(args.work, "ids.schema.json")
    with open(ids_schema, "w", encoding="utf-8") as stream:
        json.dump({"properties": {"age": {"type": "integer"}}, "additionalProperties": {"type": "string"}}, stream)
    ids_summary = os.path.join(args.work, "ids.json")
    ids_page = os.path.join(args.work, "ids.html")
    run_assay(args.assay, ["validate", "-s", ids_schema, "--quiet", "--results", os.devnull,
                           "--summary", ids_summary, "--report", ids_page, many])
    with open(ids_summary, encoding="utf-8") as stream:
        summary = json.load(stream)
    expect(summary["approximate"] and len(summary["paths"]) == 1000, "the ids run keeps 1,000 paths, approximately")
    driver = browser(1280, False)
    try:
        page_url = "file://" + os.path.abspath(ids_page)
        driver.get(page_url)
        check_clean(driver, page_url)
        rows = driver.find_elements(By.CSS_SELECTOR, "#path-table tbody tr")
        expect(len(rows) == 500, f"{len(rows)} table rows for 10,001 paths")
        other = driver.find_elements(By.CSS_SELECTOR, "#path-table tbody tr.other")
        expect(len(other) == 1 and rows[-1] == other[0], "the last row is the counted rest")
        hidden = int(other[0].get_attribute("data-other-paths"))
        expect(abs(hidden + 499 - 10001) <= 1000, f"the other row counts {hidden} paths")
        expect(rows[0].get_attribute("data-path") == "/age", "the most failing path first")
    finally:
        driver.quit()
    print(f"check_report: the report of {args.records + 2} documents checked in Chromium (light, dark, narrow); "
          f"screenshots in {args.work}")


if __name__ == "__main__":
    main()
