import Foundation
import WarbleSpeech

/// How a family's models are pulled, beside its catalogue entries: the reference forms `warble models pull`
/// takes for it and (in `FamilyPullPlanning`) how a repository becomes an installed model. The hub asks the
/// families registered in `ModelFamilies.builtIn` through these hooks and does the HTTP itself; it never
/// names a family. A family that needs none of this does not conform.
public protocol FamilyPulling: ModelFamily {
    /// The reference form of its models besides `ID[:VARIANT]`, `hf:OWNER/REPO --family NAME` and `pypi:ID`.
    var pullForm: PullReferenceForm { get }
}

/// A reference form of a family's models.
public enum PullReferenceForm: Sendable, Equatable {
    /// `PREFIX NAME`: NAME is one of the family's own listing (read from its repository at pull time), installed
    /// as `installedPrefix NAME`.
    case listed(prefix: String, installedPrefix: String)
    /// The catalogue entry's templated id filled with one of its sizes (`ID-{size}`): the reference's name is the
    /// size. `noun` names the family's models in messages ("there is no NOUN model …").
    case sized(noun: String)

    /// The reference of an installed model `id` of this form, when `id` is one.
    public func reference(ofInstalled id: String) -> String? {
        guard case .listed(let prefix, let installedPrefix) = self, id.hasPrefix(installedPrefix),
              id.count > installedPrefix.count else { return nil }
        return prefix + id.dropFirst(installedPrefix.count)
    }
}

extension ModelFamilies {
    /// The pull hooks of the family `name`, when it has any.
    public func pulling(_ name: String) -> (any FamilyPulling)? {
        family(named: name) as? any FamilyPulling
    }

    /// Every family with pull hooks, by name.
    public var pullingFamilies: [any FamilyPulling] {
        names.compactMap { pulling($0) }
    }

    /// The reference form of family `name` (nil: catalogue ids only).
    public func pullForm(of name: String) -> PullReferenceForm? {
        pulling(name)?.pullForm
    }
}
