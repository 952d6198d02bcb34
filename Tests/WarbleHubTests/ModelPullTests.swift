import Foundation
import Testing
import WarbleEngine
import WarbleHub
import WarbleModels
import WarblePhonemes
import WarbleTestSupport

/// `warble models pull` against the Hub imitation (tools/hub/hub_server.py) serving the installed
/// default voice laid out as rhasspy/piper-voices (and a 4 MB voice of random bytes for the fault
/// tests): install and speak, run twice, resume, restart on an ignored Range, refuse corruption, gated
/// access, offline, interruption, two pulls at once.
@Suite(.needs(fixtures: "hub"), .serialized) struct ModelPullTests {
    static let id = "piper-\(HubImitation.fakeKey)"
    static let realID = "piper-\(HubImitation.voiceKey)"

    /// The pulled model has every file, each byte for byte the file the imitation serves (sha256).
    func expectIntact(_ store: ModelStore, id: String = id, original: URL? = nil) throws {
        let model = try store.model(id)
        #expect(model.verify(checksums: true).isEmpty)
        #expect(model.manifest.files.map(\.path).sorted() == ["MODEL_CARD", "config.json", "model.onnx"])
        let served = try original ?? HubImitation.tree.get().appendingPathComponent("rhasspy/piper-voices/\(HubImitation.fakePath)")
        #expect(try SHA256.hex(ofFile: model.url(for: "model.onnx")) == SHA256.hex(ofFile: served))
        // Nothing is left behind: no partial downloads, no staging directories.
        #expect(!FileManager.default.fileExists(atPath: ModelInstaller(store: store).downloads(for: id).path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.modelsDirectory.path)
            .filter { $0.hasSuffix(".installing") || $0.hasSuffix(".old") }
        #expect(leftovers.isEmpty)
    }

    /// With the project's tools, the voice is split on pull as the set-up splits it.
    @Test(.needs(model: "piper-en_US-joe-medium"), .needsRuntime) func pullInstallsAVoiceThatSpeaks() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let outcome = try await HubImitation.pull(hub.environment(), into: store, key: HubImitation.voiceKey, tools: HubImitation.tools)
        guard case .installed(let model) = outcome else { Issue.record("expected an install, got \(outcome)"); return }
        // The Hub's sha256 is the one the set-up recorded for the same file.
        let setUp = try ModelStore().model(Self.realID)
        #expect(model.manifest.files.first { $0.path == "model.onnx" }?.sha256
            == setUp.manifest.files.first { $0.path == "model.onnx" }?.sha256)
        #expect(model.verify(checksums: false).isEmpty)
        #expect(model.manifest.family == "piper")
        #expect(model.manifest.source.hasPrefix("Hugging Face rhasspy/piper-voices@"))
        #expect(model.manifest.licence.contains("CC0-1.0"))
        #expect(model.manifest.voices.map(\.id) == [HubImitation.voiceKey])
        #expect(model.manifest.sampleRate == 22050 && model.manifest.languages == ["en-US"])
        #expect(model.manifest.files.map(\.path).sorted() == ["MODEL_CARD", "config.json", "decoder.onnx", "encoder.ort", "model.onnx"])
        #expect(model.manifest.converter == "tools/models/split_piper.py" && model.manifest.notes == nil)
        #expect(model.manifest.derivedFrom?.files.keys.sorted() == ["MODEL_CARD", "config.json", "model.onnx"])
        let split = try #require(try ModelConfigurationReader.decode(PiperModelConfiguration.self, from: model.manifest).split)
        #expect(split == (try ModelConfigurationReader.decode(PiperModelConfiguration.self, from: setUp.manifest).split))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: model.directory.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")

        let engine = Engine(store: store, phonemizer: EspeakPhonemizer(), configuration: .init(threads: 1))
        var samples: [Float] = []
        for try await chunk in engine.synthesize(SynthesisRequest(text: "Pulled from the Hub.", voice: HubImitation.voiceKey)) {
            samples += chunk.samples
        }
        let rms = (samples.reduce(0) { $0 + $1 * $1 } / Float(max(1, samples.count))).squareRoot()
        #expect(samples.count > 22050 / 2 && rms > 0.01, "\(samples.count) samples, RMS \(rms)")

        // The CDN got no token; every file of the pull was asked for at one commit.
        let log = try await hub.log()
        #expect(log.contains { $0.host.hasPrefix("localhost") && $0.method == "GET" })
        let commit = try #require(model.manifest.source.split(separator: "@").last.map(String.init))
        #expect(log.filter { $0.path.contains("/resolve/") && !$0.path.hasSuffix("voices.json") }
            .allSatisfy { $0.path.contains("/resolve/\(commit)/") })
    }

    @Test func aSecondPullDownloadsNothing() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        _ = try await HubImitation.pull(hub.environment(), into: store)
        let before = try await hub.log().count
        let outcome = try await HubImitation.pull(hub.environment(), into: store)
        guard case .alreadyInstalled = outcome else { Issue.record("expected already installed, got \(outcome)"); return }
        #expect(try await hub.log().dropFirst(before).allSatisfy { $0.method == "HEAD" || $0.path.hasSuffix("voices.json") })
        try expectIntact(store)
    }

    @Test func aDroppedTransferResumesWithRange() async throws {
        let hub = try HubImitation(["--drop-after", "1500000"])
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        _ = try await HubImitation.pull(hub.environment(), into: store)
        try expectIntact(store)
        let cdn = try await hub.log().filter { $0.host.hasPrefix("localhost") && $0.method == "GET" }
        #expect(cdn.count == 2 && cdn.first?.droppedAfter == 1_500_000, "\(cdn)")
        let resumedAt = cdn.last?.range.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) } ?? 0
        #expect(resumedAt > 0 && resumedAt <= 1_500_000 && cdn.last?.status == 206, "\(cdn)")
    }

    @Test func aServerThatIgnoresRangeIsStartedOver() async throws {
        let hub = try HubImitation(["--drop-after", "1500000", "--ignore-range"])
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        _ = try await HubImitation.pull(hub.environment(), into: store)
        try expectIntact(store)
        let cdn = try await hub.log().filter { $0.host.hasPrefix("localhost") && $0.method == "GET" }
        #expect(cdn.last?.range != nil && cdn.last?.status == 200, "\(cdn)")
    }

    @Test func aCorruptedFileIsRefusedAndDeleted() async throws {
        let hub = try HubImitation(["--corrupt", "rhasspy/piper-voices/\(HubImitation.fakePath)"])
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        await #expect { _ = try await HubImitation.pull(hub.environment(), into: store) } throws: { error in
            let text = "\(error)"
            return text.contains("is corrupt: its sha256 is") && text.contains("the file was deleted")
        }
        #expect(!FileManager.default.fileExists(atPath: store.modelsDirectory.appendingPathComponent(Self.id).path))
        let partial = ModelInstaller(store: store).downloads(for: Self.id)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: partial.path)) ?? []).filter { $0.hasPrefix("model.onnx") }.isEmpty)
    }

    @Test func gatedRepositoriesNeedTheRightToken() async throws {
        let hub = try HubImitation(["--gated", "rhasspy/piper-voices", "--token", HubImitation.token])
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        await #expect { _ = try await HubImitation.pull(hub.environment(), into: store) } throws: { error in
            let e = error as? HubError
            return e?.kind == .gated && e!.message.contains("gated repository") && e!.message.contains("HF_TOKEN")
                && e!.message.contains("\(hub.endpoint)/rhasspy/piper-voices")
        }
        await #expect { _ = try await HubImitation.pull(hub.environment(token: "hf_wrong"), into: store) } throws: { error in
            let e = error as? HubError
            return e?.kind == .gated && e!.message.contains("the token from HF_TOKEN has no access")
        }
        _ = try await HubImitation.pull(hub.environment(token: HubImitation.token), into: store)
        try expectIntact(store)
        // The token went to the Hub, never to the CDN.
        let log = try await hub.log()
        #expect(log.filter { $0.host.hasPrefix("localhost") }.allSatisfy { !$0.authorization })
        #expect(log.contains { $0.host.hasPrefix("127.0.0.1") && $0.authorization })
    }

    @Test func offlineSaysSoAndKeepsWhatIsInstalled() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        await #expect { _ = try await HubImitation.pull(hub.environment(offline: true), into: store) } throws: { error in
            let e = error as? HubError
            return e?.kind == .offline && e!.message.contains("HF_HUB_OFFLINE") && e!.message.contains(Self.id)
        }
        #expect(try await hub.log().isEmpty)
        _ = try await HubImitation.pull(hub.environment(), into: store)
        let outcome = try await HubImitation.pull(hub.environment(offline: true), into: store)
        guard case .alreadyInstalled = outcome else { Issue.record("expected already installed, got \(outcome)"); return }
    }

    /// Cancelled part-way (as Ctrl-C cancels the command), the partial file stays; the next pull
    /// continues after it.
    @Test func anInterruptedPullContinuesNextTime() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let environment = hub.environment()
        let gate = Gate()
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task {
            try await HubImitation.pull(environment, into: store, progress: { p in
                // Past 1 MB the transfer waits (in the progress report) until the test has cancelled it.
                if p.file == "model.onnx", p.fileBytes > 1_000_000, gate.open() { cancelled.wait() }
            })
        }
        await gate.wait()
        task.cancel()
        cancelled.signal()
        _ = await task.result
        #expect(!FileManager.default.fileExists(atPath: store.modelsDirectory.appendingPathComponent(Self.id).path))
        let partial = ModelInstaller(store: store).downloads(for: Self.id).appendingPathComponent("model.onnx.incomplete")
        let kept = (try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? NSNumber)?.intValue ?? 0
        #expect(kept > 1_000_000)
        _ = try await HubImitation.pull(environment, into: store)
        try expectIntact(store)
        let resumed = try await hub.log().filter { $0.host.hasPrefix("localhost") && $0.method == "GET" }.last
        #expect(resumed?.range == "bytes=\(kept)-", "\(String(describing: resumed)) after \(kept) bytes")
    }

    @Test func twoPullsAtOnceInstallOneIntactModel() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let environment = hub.environment()
        let waited = Counter()
        async let first = HubImitation.pull(environment, into: store, waiting: { waited.add() })
        async let second = HubImitation.pull(environment, into: store, waiting: { waited.add() })
        let outcomes = try await [first, second]
        let installs = outcomes.filter { if case .installed = $0 { true } else { false } }.count
        #expect(installs == 1 && waited.value == 1, "\(outcomes), waited \(waited.value)")
        try expectIntact(store)
    }

    @Test func anUnknownVoiceNamesTheNearOnes() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        await #expect {
            _ = try await HubClient.with(environment: hub.environment()) { client in
                try await HubPull(client: client, installer: ModelInstaller(store: store))
                    .pull(ModelReference(parsing: "piper:en_US-jo-medium"))
            }
        } throws: { "\($0)".contains("has no voice 'en_US-jo-medium'; did you mean ") && "\($0)".contains("en_US-joe-medium") }
    }

    @Test(.needs(model: "piper-en_US-joe-medium")) func aRenamedRepositoryIsFollowed() async throws {
        let hub = try HubImitation(["--moved", "rhasspy/old-voices=rhasspy/piper-voices"])
        let metadata = try await HubClient.with(environment: hub.environment()) { client in
            try await client.metadata(repo: "rhasspy/old-voices", revision: "main", path: HubImitation.voicePath)
        }
        #expect(metadata.sha256 == (try ModelStore().model(Self.realID).manifest.files.first { $0.path == "model.onnx" }?.sha256))
        #expect(metadata.location.contains("localhost"))
    }

    /// The set-up's copy of the default voice (same model and configuration, split, no model card)
    /// counts as installed: pulling it downloads nothing and keeps the split.
    @Test(.needs(model: "piper-en_US-joe-medium")) func theSetUpsVoiceIsAlreadyInstalled() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let setUp = try ModelStore().model(Self.realID)
        try FileManager.default.createDirectory(at: store.modelsDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: setUp.directory, to: store.modelsDirectory.appendingPathComponent(Self.realID))
        let outcome = try await HubImitation.pull(hub.environment(), into: store, key: HubImitation.voiceKey)
        guard case .alreadyInstalled(let model) = outcome else { Issue.record("expected already installed, got \(outcome)"); return }
        #expect(model.manifest == setUp.manifest)
        #expect(try await hub.log().allSatisfy { $0.method == "HEAD" || $0.path.hasSuffix("voices.json") })
    }

    /// A multi-speaker voice offers each speaker as a voice (`KEY:SPEAKER`); its graph does not split
    /// (the speaker gain sits after the decoder input), so it runs whole and the manifest says why.
    @Test(.needsRuntime) func aMultiSpeakerVoiceOffersItsSpeakersAsVoices() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let key = "en_US-twospeakers-medium"
        let outcome = try await HubImitation.pull(hub.environment(), into: store, key: key, tools: HubImitation.tools)
        guard case .installed(let model) = outcome else { Issue.record("expected an install, got \(outcome)"); return }
        #expect(model.manifest.voices.map(\.id) == [key, "\(key):alice", "\(key):bob"])
        #expect(model.manifest.files.map(\.path).sorted() == ["MODEL_CARD", "config.json", "model.onnx"])
        #expect(model.manifest.converter == nil)
        #expect(model.manifest.notes?.first?.contains("runs whole") == true
            && model.manifest.notes?.first?.contains("split_piper.py failed") == true, "\(model.manifest.notes ?? [])")
        #expect(model.verify(checksums: true).isEmpty)

        let engine = Engine(store: store, phonemizer: EspeakPhonemizer(), configuration: .init(threads: 1))
        #expect(await engine.voices.map(\.id).contains("\(key):bob"))
        func speak(_ voice: String) async throws -> [Float] {
            var samples: [Float] = []
            let request = SynthesisRequest(text: "Two speakers share one voice.", voice: voice,
                                           controls: VoiceControls(noiseScale: 0, noiseW: 0))
            for try await chunk in engine.synthesize(request) { samples += chunk.samples }
            return samples
        }
        let alice = try await speak("\(key):alice"), bob = try await speak("\(key):bob"), first = try await speak(key)
        #expect(alice.count > 11025 && alice.count == bob.count)
        // The fixture's speaker gain is 1 + sid / 2: bob is alice 1.5 times as loud; the key alone is speaker 0.
        let error = zip(alice, bob).map { abs($0 * 1.5 - $1) }.max() ?? 1
        #expect(error < 1e-4, "bob differs from 1.5 × alice by \(error)")
        #expect(first == alice)
    }

    /// Without the tools the voice is installed whole and the manifest says what the split needs.
    @Test func withoutTheToolsAVoiceRunsWholeAndSaysWhy() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        let outcome = try await HubImitation.pull(hub.environment(), into: store)
        guard case .installed(let model) = outcome else { Issue.record("expected an install, got \(outcome)"); return }
        let note = try #require(model.manifest.notes?.first)
        #expect(note.contains("runs whole") && note.contains("scripts/python-env.sh") && note.contains("WARBLE_SOURCE_ROOT"), "\(note)")
    }

    @Test func removeDeletesTheModel() async throws {
        let hub = try HubImitation()
        let store = try HubImitation.home()
        defer { try? FileManager.default.removeItem(at: store.home) }
        _ = try await HubImitation.pull(hub.environment(), into: store)
        try await ModelInstaller(store: store).remove(Self.id)
        #expect(store.scan().models.isEmpty)
        await #expect(throws: ModelStoreError.self) { try await ModelInstaller(store: store).remove(Self.id) }
    }
}

/// Opens once; waiters resume when it is open.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Opens the gate; true the first time.
    @discardableResult
    func open() -> Bool {
        lock.lock()
        guard !isOpen else { lock.unlock(); return false }
        isOpen = true
        let resume = waiters
        waiters = []
        lock.unlock()
        for w in resume { w.resume() }
        return true
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
