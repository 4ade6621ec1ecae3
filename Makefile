# The two set-up commands of the README:
#   make demo   recognize a bundled sample with the bundled model
#   make test   run the Swift and the Python test suites
.PHONY: demo test test-swift test-python build release

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
