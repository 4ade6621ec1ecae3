import DigitalInk
import Foundation

/// The models this package ships, as SwiftPM resources of the `DigitalInkModels` product: every
/// model in `Models/manifest.json` (47 models: 27 Latin-script languages sharing one network, Vietnamese
/// `vi`, Greek `el`, Korean `ko`, Hebrew `he`, Hindi `hi`, Bengali `bn`, Tamil `ta` and Thai `th` each on a
/// network of its own, the Cyrillic `ru`, `uk`, `bg`, `mk`
/// and `sr` sharing another, the Arabic-script `ar`, `fa` and `ur` another, `ja`, `zh-Hans` and `zh-Hant` sharing
/// a third, and the shapes model `zxx-Zsym-x-shapes`).
///
/// Link this product to have every shipped model inside your app or tool, found wherever the
/// built program runs (no source tree, no download):
///
/// ```swift
/// import DigitalInk
/// import DigitalInkModels
///
/// let manager = ModelManager(repository: DigitalInkModels.repository)
/// ```
///
/// A folder that several models share (a network named `../<folder>/weights.safetensors` in their
/// configs) is a resource of its own beside the model folders, so that the bundle keeps the
/// repository's layout.
///
/// An app that wants only some models copies them instead (`inkrec models export --language en-US
/// --output Resources/Models`) and uses `ModelRepository.bundle(_:)`.
public enum DigitalInkModels {
    /// The directory that holds `manifest.json` and one folder per model, inside this product's
    /// resource bundle.
    public static var directory: URL {
        // The bundle's layout is the repository's: manifest.json at its top.
        Bundle.module.url(forResource: "manifest", withExtension: "json")!.deletingLastPathComponent()
    }

    /// A repository over ``directory``: install its models with a ``ModelManager`` as from any other
    /// repository.
    public static var repository: ModelRepository { .directory(directory) }
}
