# Refrain: `make run` plays, `make test` proves, `make bench` measures.
SWIFT ?= swift
FIXTURES := Tests/Fixtures/generated

.PHONY: run build release rooms install imports test unit e2e fixtures bench order-file fuzz format clean

# The player alone: the listening-room binary (refrain-room, Hummingbird and SwiftNIO) is
# `make rooms`, so a fresh clone reaches the first screen without building it.
run: release
	./.build/release/refrain

# The Swift runtime and Foundation are linked in (docs/DECISIONS.md): the binary runs where
# no Swift toolchain is installed, and starts in 13 ms instead of 20. libcurl is then
# dropped from the libraries loaded at start-up: CCurlLoader opens it on first use
# (7 ms instead of 13, about 5 MB less resident); scripts/check-curl-loader checks first
# that the loader defines exactly the libcurl functions Foundation calls.
# lld lays out the functions a session runs together (scripts/refrain.order, written by
# scripts/make-order-file; a stale list is a `make bench` warning) and packs the
# relocations (DT_RELR). The bench binary shares the compile flags, so building it does
# not recompile everything. MPRIS is a plugin beside the binary (librefrain-mpris.so): only
# it links GIO, so a start without a session bus maps none of GLib. `swift build` makes it
# (the refrain-mpris product); the release's is linked by scripts/build-mpris-plugin
# instead, without the Swift runtime SwiftPM adds to every library it links. Listening rooms run in
# refrain-room, a second binary beside refrain: only it links Hummingbird and SwiftNIO.
RELEASE := -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
LAYOUT := -Xlinker --symbol-ordering-file=$(CURDIR)/scripts/refrain.order -Xlinker --no-warn-symbol-ordering \
	-Xlinker --no-export-dynamic

release:
	@scripts/install-deps build
	@SWIFT=$(SWIFT) scripts/check-curl-loader
	$(SWIFT) build $(RELEASE) $(LAYOUT) --product refrain
	@if nm -D --defined-only .build/release/refrain | grep -q ' curl_easy_init$$'; then \
	  patchelf --remove-needed libcurl.so.4 .build/release/refrain; fi
	scripts/build-mpris-plugin .build/release release

# refrain-room (listening rooms: Hummingbird, SwiftNIO) beside the release binary. `make
# test` leaves it out: the end-to-end tests run the debug build's. It takes the player's
# flags too: a product built with other flags recompiles every module the two share, so
# `make release` after `make rooms` (or the other way round) would rebuild for minutes.
rooms: release
	$(SWIFT) build $(RELEASE) $(LAYOUT) --product refrain-room

# Profiles a listening session under callgrind and rewrites scripts/refrain.order.
order-file: fixtures release
	@scripts/install-deps profile
	scripts/with-test-pulse scripts/make-order-file

# Installs the release binary, its MPRIS plugin, refrain-room and the demo catalog:
# PREFIX/bin, PREFIX/lib/refrain, PREFIX/share/refrain.
PREFIX ?= /usr/local
install: release rooms
	scripts/install-refrain .build/release/refrain $(DESTDIR)$(PREFIX)

build:
	@scripts/install-deps build
	$(SWIFT) build

fixtures:
	@scripts/install-deps test
	scripts/make-test-fixtures $(FIXTURES)
	python3 Tests/EndToEnd/subsonic_harness.py --install

# Package.swift declares what each Swift target imports, and nothing more (the module graph
# docs/architecture.md draws); scripts/check-imports names any import or dependency that is not.
imports:
	@SWIFT=$(SWIFT) scripts/check-imports

# The whole suite (after the module check, before anything is built): Swift unit tests, then the end-to-end tests (scripts/e2e), each part
# against private PulseAudio servers (stopped again even when a test fails). The unit tests
# run on a fresh-boot clock (a time namespace whose monotonic clock reads about 30 s, as
# root), so code that reads a clock before a test injects its own fails here as on a new CI
# machine. scripts/e2e runs the tests that measure time one at a time, then the rest over
# three workers. The release build is checked too (Tests/EndToEnd/test_release.py).
test: imports fixtures release
	$(SWIFT) build --build-tests
	scripts/with-test-pulse scripts/on-fresh-boot-clock $(SWIFT) test --skip-build
	scripts/e2e

unit: fixtures
	$(SWIFT) test

e2e: fixtures build
	scripts/e2e

bench: fixtures release rooms
	@scripts/install-deps bench
	$(SWIFT) build $(RELEASE) $(LAYOUT) --product refrain-bench
	scripts/check-order-file
	scripts/with-test-pulse python3 scripts/bench.py
	# Internet radio against a real Icecast (its table is printed, for docs/benchmarks.md).
	REFRAIN_BIN=.build/release/refrain scripts/with-test-pulse python3 scripts/bench_radio.py

# Long fuzz runs: every seeded fuzz and property test at 100× its `make test` case count,
# so at least 100,000 cases each: LRC parser 400,000, FLO song reader 400,000,
# command parser 600,000, config reader 550,000.
fuzz: fixtures
	REFRAIN_FUZZ_SCALE=100 $(SWIFT) test --filter "Fuzz|Property|RandomInput"

format:
	$(SWIFT) format --in-place --recursive --configuration .swift-format Sources Tests Package.swift

clean:
	rm -rf .build $(FIXTURES)
