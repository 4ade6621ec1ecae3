import Foundation

extension Notification.Name {
    /// Posted by ``ModelManager`` when a model download finishes and the model is installed, as
    /// ML Kit posts `.mlkitModelDownloadDidSucceed`. The `object` is the manager; `userInfo`
    /// holds the ``DigitalInkRecognitionModel`` under ``ModelDownloadUserInfoKey/model``.
    public static let digitalInkModelDownloadDidSucceed = Notification.Name("DigitalInkModelDownloadDidSucceed")

    /// Posted by ``ModelManager`` when a model download fails or is cancelled, as ML Kit posts
    /// `.mlkitModelDownloadDidFail`. The `object` is the manager; `userInfo` holds the
    /// ``DigitalInkRecognitionModel`` under ``ModelDownloadUserInfoKey/model`` and the
    /// ``DigitalInkError`` under ``ModelDownloadUserInfoKey/error``.
    public static let digitalInkModelDownloadDidFail = Notification.Name("DigitalInkModelDownloadDidFail")
}

/// Keys of the `userInfo` of ``Foundation/NSNotification/Name/digitalInkModelDownloadDidSucceed`` and
/// ``Foundation/NSNotification/Name/digitalInkModelDownloadDidFail``. Use the `rawValue` as the key.
///
/// Each value is posted under two keys: this library's (`model`, `error`) and ML Kit's names
/// (`remoteModel`, `mlKitError`, whose raw values are ML Kit's constant names
/// `MLKModelDownloadUserInfoKeyRemoteModel` and `MLKModelDownloadUserInfoKeyError`), so that code
/// ported from ML Kit finds what it looks for.
public enum ModelDownloadUserInfoKey: String, Sendable, CaseIterable {
    /// The ``DigitalInkRecognitionModel`` that was downloaded.
    case model
    /// The ``DigitalInkError`` the download failed with.
    case error
    /// ML Kit's key for the model (`ModelDownloadUserInfoKey.remoteModel` there).
    case remoteModel = "MLKModelDownloadUserInfoKeyRemoteModel"
    /// ML Kit's key for the error (`ModelDownloadUserInfoKey.error` there).
    case mlKitError = "MLKModelDownloadUserInfoKeyError"
}
