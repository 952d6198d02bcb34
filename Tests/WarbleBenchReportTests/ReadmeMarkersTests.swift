import Testing
@testable import WarbleBenchReport

@Test func replacesOnlyTheTextBetweenTheMarkers() throws {
    let readme = "# Title\n\nIntro.\n\n<!-- bench-report:start -->\nold table\n<!-- bench-report:end -->\n\nAfter.\n"
    let updated = try ReadmeMarkers.replace(in: readme, with: "| new |")
    #expect(updated == "# Title\n\nIntro.\n\n<!-- bench-report:start -->\n| new |\n<!-- bench-report:end -->\n\nAfter.\n")
    // Idempotent: replacing again with the same table changes nothing.
    #expect(try ReadmeMarkers.replace(in: updated, with: "| new |\n") == updated)
}

@Test func missingMarkersAreAClearError() {
    #expect(throws: ReadmeMarkers.MissingMarkers.self) { try ReadmeMarkers.replace(in: "no markers", with: "x") }
    do {
        _ = try ReadmeMarkers.replace(in: "a\n<!-- bench-report:start -->\nb\n", with: "x", name: "README.md")
        Issue.record("no error without the end marker")
    } catch {
        #expect(error.description.contains("README.md has <!-- bench-report:start --> but no <!-- bench-report:end -->"))
    }
    do {
        _ = try ReadmeMarkers.replace(in: "<!-- bench-report:end -->\n<!-- bench-report:start -->", with: "x")
        Issue.record("no error with the markers in the wrong order")
    } catch {
        #expect(error.description.contains("no <!-- bench-report:end -->"))
    }
}
