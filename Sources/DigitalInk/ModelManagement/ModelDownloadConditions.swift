import Foundation

/// How ``ModelManager`` may download a model, as ML Kit's `ModelDownloadConditions`, plus the
/// timeout and retry policy.
public struct ModelDownloadConditions: Sendable, Hashable {
    /// Whether the download may use a cellular connection (applied to the HTTP requests on Apple
    /// platforms; Linux has no such distinction).
    public var allowsCellularAccess: Bool
    /// Accepted for source compatibility with ML Kit. Downloads always run in the app's process;
    /// they are not handed to a system background-transfer service.
    public var allowsBackgroundDownloading: Bool
    /// Seconds a transfer may go without receiving any data before it fails with
    /// ``DigitalInkError/downloadFailed(url:status:reason:)``.
    public var timeoutInterval: TimeInterval
    /// How many times a file transfer is retried after a network failure, a cut-off body or an
    /// HTTP 5xx status before the download fails. A retry resumes where the last attempt stopped
    /// when the server honours `Range` requests. Not found (4xx), checksum and storage errors are
    /// not retried.
    public var maximumRetryCount: Int

    /// Download conditions. The defaults allow any network, time out after 60 seconds without
    /// data, and retry a failed transfer twice.
    public init(
        allowsCellularAccess: Bool = true,
        allowsBackgroundDownloading: Bool = true,
        timeoutInterval: TimeInterval = 60,
        maximumRetryCount: Int = 2
    ) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
        self.timeoutInterval = timeoutInterval
        self.maximumRetryCount = max(0, maximumRetryCount)
    }
}
