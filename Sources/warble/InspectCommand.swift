import ArgumentParser
import Foundation
import ONNXRuntime

/// `warble inspect MODEL.onnx`: the inputs, outputs and metadata of an ONNX model.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show an ONNX model's inputs, outputs (names, types, symbolic shapes) and metadata."
    )

    @Argument(help: "An .onnx file.")
    var model: String

    func run() throws {
        let session = try Session(path: model, options: SessionOptions(intraOpThreads: 1))
        print("model     \(session.source)")
        let meta = session.metadata
        if !meta.producerName.isEmpty { print("producer  \(meta.producerName)") }
        if !meta.graphName.isEmpty { print("graph     \(meta.graphName)") }
        for input in session.inputs { print("input     \(input)") }
        for output in session.outputs { print("output    \(output)") }
        for (key, value) in meta.custom.sorted(by: { $0.key < $1.key }) {
            print("metadata  \(key) = \(value.count > 120 ? String(value.prefix(117)) + "..." : value)")
        }
    }
}
