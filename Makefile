# The two set-up commands of the README:
#   make demo   recognize a bundled sample with the bundled model
#   make test   run the Swift and the Python test suites
.PHONY: demo test test-swift test-python test-tsan build release

demo:
	@scripts/install-deps
	swift build -c release --product inkrec
	swift run -c release inkrec recognize Samples/hello.json

test: test-swift test-python

test-swift:
	@scripts/install-deps
	swift test

# The concurrency tests under ThreadSanitizer, in a build folder of their own (CI runs this after
# `make test`).
TSAN_FILTER = ConcurrencyStressTests|ModelManagerDownloadTests|ModelManagerLifecycleTests
test-tsan:
	@scripts/install-deps
	swift test --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_FILTER)'

test-python:
	@scripts/install-deps --python
	python3 -m pytest -q Training/tests

build:
	@scripts/install-deps
	swift build

release:
	@scripts/install-deps
	swift build -c release
