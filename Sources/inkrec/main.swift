// Placeholder entry point so the package builds; the real command-line tool lives on another branch.
import DigitalInk

print("inkrec \(DigitalInkLibrary.version)")
