import AssayCore

/// The words of the HTML report and the terminal summary, in the languages Assay's messages have.
struct ReportStrings: Sendable {
    var title: String
    var documents: String
    var valid: String
    var invalid: String
    var errors: String
    var notValidated: String
    var throughput: String
    var documentsPerSecond: String
    var inputBytes: String
    var mostFailingPaths: String
    var errorsByKeyword: String
    var errorsPerDocument: String
    var failingPaths: String
    var path: String
    var shareOfErrors: String
    var shareOfDocuments: String
    var keywords: String
    var examples: String
    var other: String
    /// `%1` paths.
    var otherPaths: String
    var approximate: String
    var truncated: String
    var redacted: String
    var excerpt: String
    var allValid: String
    var schema: String
    var inputs: String
    var shards: String
    var generatedBy: String
    var sortHint: String
    var moreRows: String
    /// `%1` bytes per document on average.
    var perDocument: String

    static func forLanguage(_ identifier: String) -> ReportStrings {
        switch identifier {
        case "ru": russian
        case "zh-Hans": chinese
        default: english
        }
    }

    static let english = ReportStrings(
        title: "Validation report", documents: "Documents", valid: "Valid", invalid: "Invalid", errors: "Errors",
        notValidated: "Not validated (over a limit)", throughput: "Throughput", documentsPerSecond: "documents/s",
        inputBytes: "Input", mostFailingPaths: "Most failing paths", errorsByKeyword: "Errors by keyword",
        errorsPerDocument: "Errors per invalid document", failingPaths: "Failing paths", path: "Path",
        shareOfErrors: "% of errors", shareOfDocuments: "% of documents", keywords: "Keywords",
        examples: "Examples", other: "Other", otherPaths: "%1 more paths",
        approximate:
            "Some counts are approximate (≈): more distinct paths failed than the summary keeps. A path's count is at most the number shown, and at least that minus its margin; a path not listed has at most %1 errors.",
        truncated: "%1 documents had more errors than --max-errors; only the first were counted.",
        redacted: "Values at these places are not shown: %1.",
        excerpt: "An excerpt: parts of the document away from its failures are left out (…).",
        allValid: "Every document is valid.", schema: "Schema", inputs: "Input", shards: "summaries merged",
        generatedBy: "Made by assay %1.", sortHint: "Click a column heading to sort.",
        moreRows: "%1 more paths, %2 errors",
        perDocument: "%1 per document")

    static let russian = ReportStrings(
        title: "Отчёт о проверке", documents: "Документы", valid: "Корректные", invalid: "Некорректные",
        errors: "Ошибки", notValidated: "Не проверены (превышен лимит)", throughput: "Скорость",
        documentsPerSecond: "документов/с", inputBytes: "Объём", mostFailingPaths: "Пути с наибольшим числом ошибок",
        errorsByKeyword: "Ошибки по ключевым словам", errorsPerDocument: "Ошибок на некорректный документ",
        failingPaths: "Пути с ошибками", path: "Путь", shareOfErrors: "% ошибок", shareOfDocuments: "% документов",
        keywords: "Ключевые слова", examples: "Примеры", other: "Прочее", otherPaths: "ещё путей: %1",
        approximate:
            "Некоторые числа приблизительны (≈): путей с ошибками больше, чем хранит сводка. Число у пути — не больше показанного и не меньше его за вычетом погрешности; у пути, которого нет в списке, не больше %1 ошибок.",
        truncated: "Документов, где ошибок больше --max-errors: %1; учтены только первые.",
        redacted: "Значения в этих местах скрыты: %1.",
        excerpt: "Фрагмент: части документа вдали от ошибок опущены (…).", allValid: "Все документы корректны.",
        schema: "Схема", inputs: "Вход", shards: "сводок объединено", generatedBy: "Создано assay %1.",
        sortHint: "Нажмите на заголовок столбца, чтобы отсортировать.", moreRows: "ещё путей: %1, ошибок: %2",
        perDocument: "%1 на документ")

    static let chinese = ReportStrings(
        title: "验证报告", documents: "文档", valid: "有效", invalid: "无效", errors: "错误",
        notValidated: "未验证（超出限制）", throughput: "吞吐量", documentsPerSecond: "文档/秒", inputBytes: "输入",
        mostFailingPaths: "错误最多的路径", errorsByKeyword: "按关键字统计的错误", errorsPerDocument: "每个无效文档的错误数",
        failingPaths: "出错的路径", path: "路径", shareOfErrors: "错误占比", shareOfDocuments: "文档占比",
        keywords: "关键字", examples: "示例", other: "其他", otherPaths: "另外 %1 个路径",
        approximate: "部分计数为近似值（≈）：出错的不同路径多于摘要保留的数量。路径的计数不超过所示数值，且不少于该值减去其误差；未列出的路径最多有 %1 个错误。",
        truncated: "%1 个文档的错误超过 --max-errors，只统计了前面的错误。", redacted: "这些位置的值不显示：%1。",
        excerpt: "节选：文档中与错误无关的部分已省略（…）。", allValid: "所有文档均有效。", schema: "模式", inputs: "输入",
        shards: "个摘要已合并", generatedBy: "由 assay %1 生成。", sortHint: "点击列标题进行排序。", moreRows: "另外 %1 个路径，%2 个错误",
        perDocument: "每个文档 %1")

    /// `template` with `%1`, `%2` replaced.
    static func fill(_ template: String, _ values: String...) -> String {
        var text = template
        for (index, value) in values.enumerated() { text = text.replacing("%\(index + 1)", with: value) }
        return text
    }
}
