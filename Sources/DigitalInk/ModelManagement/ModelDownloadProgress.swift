/// One progress event of a model download (see ``ModelDownload``).
public struct ModelDownloadProgress: Sendable, Hashable, CustomStringConvertible {
    /// The stage a download is in.
    public enum Phase: Sendable, Hashable {
        /// Reading the repository's manifest.
        case fetchingManifest
        /// Transferring files; `completedBytes` grows.
        case downloading
        /// Checking the size and SHA-256 of `currentFile`.
        case verifying
        /// All files are verified; the model is being put in place.
        case installing
        /// The model is installed and usable. This is the last event of a successful download.
        case installed
    }

    /// The model being downloaded.
    public var model: DigitalInkRecognitionModel
    /// The stage the download is in.
    public var phase: Phase
    /// The version being installed, once the manifest has been read.
    public var version: String?
    /// Bytes of the model's files already present and verified or transferred so far.
    public var completedBytes: Int64
    /// Total bytes of the model's files (shared files counted once); 0 until the manifest is read.
    public var totalBytes: Int64
    /// Files finished (verified) so far.
    public var completedFiles: Int
    /// Number of distinct files of the model; 0 until the manifest is read.
    public var totalFiles: Int
    /// The manifest path of the file being transferred or verified, if any.
    public var currentFile: String?
    /// Manifest paths of files that were already in the storage (shared with an installed model)
    /// but failed their size and SHA-256 check, and that this download transfers again. Installed
    /// models that share them get the verified copy too.
    public var damagedFiles: [String]

    /// A progress event.
    public init(
        model: DigitalInkRecognitionModel, phase: Phase, version: String? = nil,
        completedBytes: Int64 = 0, totalBytes: Int64 = 0,
        completedFiles: Int = 0, totalFiles: Int = 0, currentFile: String? = nil, damagedFiles: [String] = []
    ) {
        self.model = model
        self.phase = phase
        self.version = version
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.completedFiles = completedFiles
        self.totalFiles = totalFiles
        self.currentFile = currentFile
        self.damagedFiles = damagedFiles
    }

    /// One line for people: `en-US 1.3.0: downloading 42%`, `en-US: reading the manifest`,
    /// `en-US 1.3.0: installed`.
    public var description: String {
        let name = model.modelIdentifier.languageTag + (version.map { " \($0)" } ?? "")
        switch phase {
        case .fetchingManifest: return "\(name): reading the manifest"
        case .downloading: return "\(name): downloading \(Int((fractionCompleted * 100).rounded(.down)))%"
        case .verifying: return "\(name): verifying \(currentFile ?? "files")"
        case .installing: return "\(name): installing"
        case .installed: return "\(name): installed"
        }
    }

    /// `completedBytes / totalBytes` between 0 and 1; 1 once installed.
    public var fractionCompleted: Double {
        if phase == .installed { return 1 }
        guard totalBytes > 0 else { return 0 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
