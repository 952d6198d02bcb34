import ArgumentParser
import Foundation
import WarbleEngine

/// `warble inspect MODEL.onnx`: the inputs, outputs and metadata of an ONNX model.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show an ONNX model's inputs, outputs (names, types, symbolic shapes) and metadata."
    )

    @Argument(help: "An .onnx file.")
    var model: String

    func run() throws {
        for line in try RuntimeDiagnostics.describeModel(at: model) { print(line) }
    }
}
