import Foundation
import Testing
@testable import ONNXRuntime
import WarbleTestSupport

@Suite struct LibraryTests {
    @Test(.needsRuntime) func loadsThePinnedLibrary() throws {
        let library = try ONNXRuntimeLibrary.shared()
        #expect(library.version.split(separator: ".").count == 3)
        #expect(library.apiLevel == 15)
        #expect(library.maxAPILevel >= library.apiLevel)
        #expect(library.buildInfo.contains("ORT Build Info"))
        #expect(library.availableProviders.contains("CPUExecutionProvider"))
    }

    @Test func missingLibraryNamesWhereItLookedAndHowToInstall() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warble-empty-\(UUID().uuidString)")
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try ONNXRuntimeLibrary.load(environment: ["WARBLE_HOME": home.path])
        }
        #expect(error?.kind == .libraryNotFound)
        #expect(error?.message.contains(home.appendingPathComponent("lib/libonnxruntime.so").path) == true)
        #expect(error?.message.contains("scripts/setup.sh") == true)
    }

    @Test func explicitLibraryVariableThatIsNotALibrary() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-library-\(UUID().uuidString).so")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: ONNXRuntimeError.self) {
            _ = try ONNXRuntimeLibrary.load(environment: ["WARBLE_ORT_LIBRARY": file.path])
        }
        #expect(error?.kind == .libraryNotFound)
        #expect(error?.message.contains(file.path) == true)
        #expect(error?.message.contains("WARBLE_ORT_LIBRARY") == true)
    }

    @Test func warbleHomeDefaultsToXDGDataHome() {
        #expect(LibraryLocator.warbleHome(environment: ["HOME": "/home/a"]).path == "/home/a/.local/share/warble")
        #expect(LibraryLocator.warbleHome(environment: ["HOME": "/home/a", "XDG_DATA_HOME": "/x"]).path == "/x/warble")
        #expect(LibraryLocator.warbleHome(environment: ["WARBLE_HOME": "/w", "XDG_DATA_HOME": "/x"]).path == "/w")
        #expect(LibraryLocator.candidates(environment: ["WARBLE_ORT_LIBRARY": "/a/b.so"]) == ["/a/b.so"])
    }
}
