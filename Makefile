# The two set-up commands of the README:
#   make demo   recognize a bundled sample with the bundled model
#   make test   run the Swift and the Python test suites
#   make fuzz   build the libFuzzer targets in Fuzz/ and run each for FUZZ_SECONDS (see Fuzz/README.md)
#   make test-arm  the NEON 8-bit kernels under emulation (scripts/install-deps --arm first)
#   make test-spark  the Spark integration (Integrations/spark) on local[2] with the archive below
#   make spark-archive  inkrec and its models as an archive for `spark-submit --archives`
.PHONY: demo test test-swift test-python test-tsan test-relocation test-server test-arm test-spark spark-archive serve build release docs fuzz fuzz-build

demo:
	@scripts/install-deps
	swift build -c release --product inkrec
	swift run -c release inkrec recognize Samples/hello.json

test: test-swift test-python test-relocation

test-swift:
	@scripts/install-deps
	swift test

# The concurrency tests under ThreadSanitizer, in a build folder of their own (CI runs this after
# `make test`).
TSAN_FILTER = ConcurrencyStressTests|ModelManagerDownloadTests|ModelManagerLifecycleTests|PageCancellationTests|concurrentLearnAndRecognize|learnOnSeveralThreads
# The HTTP server (Server/, a package of its own: the library never resolves Hummingbird).
test-server:
	@scripts/install-deps
	@scripts/install-deps --browser
	swift test --package-path Server
	swift build --package-path Server --product inkrec-serve
	python3 Server/BrowserTests/test_page.py

serve:
	@scripts/install-deps
	swift run --package-path Server inkrec-serve

test-tsan:
	@scripts/install-deps
	swift test --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_FILTER)'

# Built programs find their bundled models with the source tree gone: inkrec and the README's first
# program (Examples/FirstProgram), built in a copy of the checkout that is then deleted.
test-relocation:
	@scripts/install-deps
	scripts/check-relocation

test-python:
	@scripts/install-deps --python
	python3 -m pytest -q -rs Training/tests scripts/tests

# The NEON 8-bit kernels (kernels_int8.c on aarch64; no ARM machine here) against the portable ones,
# cross-compiled with GCC and clang and run under qemu-user (Tests/KernelsARM/run.sh, a few seconds).
# Installs nothing: `scripts/install-deps --arm` installs the cross compiler and qemu; without them this
# says so and skips (TEST_ARM_REQUIRED=1, as CI sets, makes that a failure).
test-arm:
	Tests/KernelsARM/run.sh

build:
	@scripts/install-deps
	swift build

release:
	@scripts/install-deps
	swift build -c release

# The DocC documentation of the DigitalInk library (Sources/DigitalInk/DigitalInk.docc and the doc
# comments), as a static site in .build/docs; a warning (a broken link) fails the build. Needs docc,
# which the Swift toolchain ships.
docs:
	@scripts/install-deps
	swift package --allow-writing-to-directory .build/docs generate-documentation \
		--target DigitalInk --output-path .build/docs --warnings-as-errors
FUZZ_SECONDS ?= 60

fuzz:
	@scripts/install-deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/fuzz.sh all

fuzz-build:
	@scripts/install-deps
	Fuzz/fuzz.sh build

# Spark (Integrations/spark): the archive executors unpack (.build/inkrec-spark.tar.gz), and the
# integration's tests on Spark local[2] with inkrec from that archive (Java and PySpark installed by
# scripts/install-deps --spark).
SPARK_ARCHIVE ?= .build/inkrec-spark.tar.gz
spark-archive:
	@scripts/install-deps --static
	scripts/spark-archive $(SPARK_ARCHIVE)

test-spark: spark-archive
	@scripts/install-deps --spark
	Integrations/spark/run-tests.sh $(SPARK_ARCHIVE)
