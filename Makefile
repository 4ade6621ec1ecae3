# The two set-up commands of the README:
#   make demo   recognize a bundled sample with the bundled model
#   make test   run the Swift and the Python test suites
#   make fuzz   build the libFuzzer targets in Fuzz/ and run each for FUZZ_SECONDS (see Fuzz/README.md)
.PHONY: demo test test-swift test-python build release fuzz fuzz-build

demo:
	@scripts/install-deps
	swift build -c release --product inkrec
	swift run -c release inkrec recognize Samples/hello.json

test: test-swift test-python

test-swift:
	@scripts/install-deps
	swift test

test-python:
	@scripts/install-deps --python
	python3 -m pytest -q Training/tests

build:
	@scripts/install-deps
	swift build

release:
	@scripts/install-deps
	swift build -c release

FUZZ_SECONDS ?= 60

fuzz:
	@scripts/install-deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/fuzz.sh all

fuzz-build:
	@scripts/install-deps
	Fuzz/fuzz.sh build
