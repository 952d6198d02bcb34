import Foundation
import WarbleAudio
import WarbleSpeech

// Cloning hooks a family may offer beside the `VoiceEncoder` of its loaded models. The engine asks every
// registered family (`ModelFamilies.all`) for them and never names one; a family adopts them in its own folder.

/// A family whose voices can be searched for a clip's speaker, where no encoder makes them (Kokoro's style
/// tables): `warble voice add` runs the search a loaded model of the family offers.
public protocol VoiceSearchingFamily: Sendable {
    /// How messages name the family ("Kokoro").
    var displayName: String { get }
    /// What `warble models pull` installs for a search when no model of the family is installed.
    var searchModel: String { get }
    /// A search over the voices of `renderer` (a loaded model of this family), nil when it offers none.
    /// `embed` gives a clip's speaker embedding; `transcribe`, when there is one, what speech recognition hears.
    func voiceSearch(for renderer: any UtteranceRenderer, embed: @escaping @Sendable (AudioBuffer) throws -> [Float],
                     transcribe: (@Sendable (AudioBuffer) async throws -> String)?) -> (any VoiceSearching)?
}

/// One model's voice search.
public protocol VoiceSearching: Sendable {
    /// The BCP 47 language of the voices it finds ("en-US").
    var language: String { get }
    /// How many directions it walks with `options`.
    func dimensions(_ options: VoiceSearch.Options) throws -> Int
    /// Searches for a voice like `target` (the clip's speaker embedding); `key` names the clip and settings in
    /// `options.stateFile`, so that a saved state is resumed only by the same search.
    func run(target: [Float], key: String, options: VoiceSearch.Options, cancel: CancellationToken,
             progress: @Sendable (VoiceSearch.Progress) -> Void) async throws -> VoiceSearch.Result
}

/// A voice whose conditioning was prepared elsewhere, with no clip to encode.
public enum PreparedVoice: Sendable {
    /// The directory an offline tool wrote (CosyVoice 3's seed app).
    case directory(URL)
    /// A reference's codec codes (`.npy` or raw int32; `name` names the file in messages) and what it says.
    case referenceCodes(Data, name: String, transcript: String)

    public enum Kind: Sendable { case directory, referenceCodes }

    public var kind: Kind {
        switch self {
        case .directory: .directory
        case .referenceCodes: .referenceCodes
        }
    }
}

/// A family that takes voices in one prepared form (`warble voice import`, `warble voice add --codes`).
public protocol PreparedVoiceImporting: Sendable {
    /// The form it takes.
    var preparedVoiceKind: PreparedVoice.Kind { get }
    /// How messages name the family ("CosyVoice 3").
    var displayName: String { get }
    /// The model a voice is kept for when none of the family is installed (and what `warble models pull` fetches).
    var preparedVoiceModel: String { get }
    /// The conditioning a library voice keeps for `voice`.
    func conditioning(for voice: PreparedVoice) throws -> VoiceConditioning
}

/// A family whose stock voices a voice mix may name without the prefix of their ids ("af_heart" for Kokoro's
/// "kokoro-af_heart").
public protocol StockVoiceNaming: Sendable {
    /// The stock voice id `name` stands for, if it has the family's form.
    func stockVoiceID(named name: String) -> String?
}

/// A family that suggests itself when no installed voice speaks a language.
public protocol LanguageSuggesting: Sendable {
    /// The sentence that says which languages it speaks and how to install it.
    var languageSuggestion: String { get }
}

extension ModelFamilies {
    /// Every registered family, by name.
    public var all: [any ModelFamily] { names.compactMap(family(named:)) }
}
