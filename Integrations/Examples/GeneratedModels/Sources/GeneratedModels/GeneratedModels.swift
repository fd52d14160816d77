// The types of this module are written at build time by AssayGeneratorPlugin, from the documents
// that assay-generator.json names: `Client` from client.schema.json (Examples/generate's), and
// `ShopOrder`, `ShopLine` and `ShopStatus` from shop.openapi.yaml's components. Nothing else here is
// written by hand; SwiftPM needs one Swift file to see a target.
