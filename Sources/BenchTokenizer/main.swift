// Encode-throughput benchmark for WarbleText's BPE tokenizer (run by scripts/bench-tokenizer.sh).
//   bench-tokenizer TOKENIZER_JSON TEXT_FILE RUNS MODE   (MODE: "text" = one call, "lines" = a call per line)
// Prints one line: "<median seconds> <token count> <bytes>".
import Foundation
import WarbleText

let arguments = CommandLine.arguments
guard arguments.count == 5, let runs = Int(arguments[3]), runs > 0, ["text", "lines"].contains(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: bench-tokenizer TOKENIZER_JSON TEXT_FILE RUNS text|lines\n".utf8))
    exit(2)
}
let perLine = arguments[4] == "lines"
do {
    let url = URL(fileURLWithPath: arguments[1])
    let text = try String(contentsOf: URL(fileURLWithPath: arguments[2]), encoding: .utf8)
    // Split on U+000A only, like Python (a Swift Character would keep "\r\n" together).
    let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    var times: [Double] = []
    var count = 0
    for _ in 0..<runs {
        // A fresh tokenizer each run: its word cache starts cold, as on the Python side.
        let tokenizer = try BPETokenizer(tokenizerJSON: url)
        let start = DispatchTime.now().uptimeNanoseconds
        if perLine {
            count = lines.reduce(0) { $0 + tokenizer.encode($1, addSpecialTokens: false).count }
        } else {
            count = tokenizer.encode(text, addSpecialTokens: false).count
        }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    times.sort()
    print(times[times.count / 2], count, text.utf8.count)
} catch {
    FileHandle.standardError.write(Data("bench-tokenizer: \(error)\n".utf8))
    exit(1)
}
