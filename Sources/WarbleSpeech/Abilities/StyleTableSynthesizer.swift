/// A synthesizer whose voices are style tables that can be written as well as read (Kokoro): a voice is
/// found by searching the space of tables for one that sounds like a clip, since no encoder turns a
/// clip into a table. The search speaks the same few texts with many tables, so the text is turned
/// into symbols once (`symbols(for:)`) and each candidate costs one model run per text.
public protocol StyleTableSynthesizer: Sendable {
    /// The model id the tables belong to.
    var modelID: String { get }
    var sampleRate: Int { get }
    /// The espeak-ng voice its symbols are made with ("en-us").
    var language: String { get }
    /// Rows and width of a table (Kokoro v1.0: 510 × 256).
    var styleShape: (rows: Int, width: Int) { get }
    /// The stock voices' tables, by voice id, sorted by id.
    func stockStyleTables() throws -> [(id: String, table: StoredTensor)]
    /// The model's symbols for `text` (what `synthesize(symbols:…)` reads), at most one run's worth.
    func symbols(for text: String) throws -> String
    /// Audio for `symbols` spoken with `table` (leading and trailing silence trimmed).
    func synthesize(symbols: String, table: StoredTensor, cancel: CancellationToken) throws -> [Float]
}
