# sbexec: a static musl binary. `make deps` installs what the build and
# the tests need (Debian/Ubuntu); `make demo` and `make test` use it.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
# The version has one place: debian/changelog's first entry. The commit
# is the checkout's, "-dirty" with local changes to what git tracks, and
# "unknown" outside a checkout (a source tree without .git).
VERSION := $(shell awk -F'[()]' 'NR == 1 { print $$2 }' debian/changelog)
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell \
	git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
CC = musl-gcc
HOSTCC = cc
CJSON_SRC ?= build/cjson
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wconversion
CFLAGS ?= -Os -g
# Small: each function its own section, the unused ones dropped at link,
# no unwind tables (C, no exceptions), no page padding between segments.
# The link is static and not PIE, so the code is not either: absolute
# addresses are shorter, and a table of pointers is .rodata, read-only,
# not .data.rel.ro, which only a dynamic loader would make read-only.
SMALL = -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
	-fno-pie
CFLAGS += $(SMALL) -std=c11 -D_GNU_SOURCE $(WARN) -Isrc -I$(CJSON_SRC) \
	-DVERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' \
	-MMD -MP -MF $(@:.o=.dep)
ifdef CI
CFLAGS += -Werror
endif
LDFLAGS += -static -Wl,--gc-sections -Wl,-z,noseparate-code

# The sources, a folder per subsystem (README, "Where things are"): src/
# holds the flow main reads and the helpers every file uses; policy/,
# sandbox/, run/, audit/ and net/ the rest. Each object is built from its
# source by one pattern rule, into the same place under build/.
SRCS := $(sort $(wildcard src/*.c src/*/*.c))
OBJS = $(SRCS:src/%.c=build/%.o)

all: sbexec

sbexec: $(OBJS) build/cJSON.o build/seccomp-bpf.o
	$(CC) $(LDFLAGS) -o $@ $^

build/%.o: src/%.c $(CJSON_SRC)/cJSON.h | build
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

# -V's commit: options.o is rebuilt when it changes.
build/commit: FORCE | build
	@[ "$$(cat $@ 2>/dev/null)" = "$(COMMIT)" ] || echo "$(COMMIT)" >$@
build/options.o build/prof/options.o: build/commit
build/options.o build/prof/options.o: CFLAGS += -DCOMMIT='"$(COMMIT)"'
FORCE:

# cJSON is Debian's patched source, fetched and checked, never committed.
# Its numbers are read by src/policy/number.c, not libc's strtod.
CJSON_DEFS = -Dstrtod=policy_strtod
build/cJSON.o: $(CJSON_SRC)/cJSON.c | build
	$(CC) -std=c11 -Os $(SMALL) $(CJSON_DEFS) -c -o $@ $<

# The seccomp filter: libseccomp on the build host, bytes in the binary.
build/seccomp-gen: tools/seccomp-gen.c src/sandbox/filter.h | build
	$(HOSTCC) -O2 $(WARN) -Isrc -o $@ $< -lseccomp

build/seccomp-bpf.c: build/seccomp-gen
	build/seccomp-gen >$@

build/seccomp-bpf.o: build/seccomp-bpf.c
	$(CC) -Os $(SMALL) -Isrc -c -o $@ $<

$(CJSON_SRC)/cJSON.c $(CJSON_SRC)/cJSON.h:
	scripts/fetch-cjson $(CJSON_SRC)

build:
	mkdir -p build

# Unit drivers, fuzzers and the sanitizer build use the host's glibc.
HOST_CFLAGS = -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) -Werror -Isrc -I$(CJSON_SRC)
UNITS = build/test/unit_quote build/test/unit_env build/test/unit_sha256 \
	build/test/quote_roundtrip build/test/unit_net build/test/unit_util \
	build/test/unit_tls build/test/unit_fmt build/test/unit_tiny \
	build/test/unit_dns
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -O1 -g -Isrc -I$(CJSON_SRC) $(CJSON_DEFS) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
POLICY_SRCS = $(addprefix src/policy/,policy.c schema.c keys.c commands.c \
	netpolicy.c trust.c programs.c env.c number.c) src/policy/devices.c \
	$(addprefix src/,path.c decide.c sha256.c util.c fmt.c tiny.c) \
	$(CJSON_SRC)/cJSON.c
FUZZERS = build/fuzz/policy_fuzz build/fuzz/quote_fuzz build/fuzz/proxyreq_fuzz \
	build/fuzz/tlshello_fuzz build/fuzz/dns_fuzz
FUZZ_TIME ?= 60

build/test/unit_quote: test/unit_quote.c src/quote.c src/util.c src/fmt.c
build/test/quote_roundtrip: test/quote_roundtrip.c src/quote.c src/util.c src/fmt.c
build/test/unit_env: test/unit_env.c src/policy/env.c src/util.c src/fmt.c
build/test/unit_sha256: test/unit_sha256.c src/sha256.c
build/test/unit_net: test/unit_net.c src/policy/netpolicy.c \
	src/net/proxyreq.c src/net/eyeballs.c src/util.c src/fmt.c src/tiny.c
build/test/unit_util: test/unit_util.c src/util.c src/fmt.c
build/test/unit_fmt: test/unit_fmt.c src/fmt.c
build/test/unit_tiny: test/unit_tiny.c src/tiny.c
build/test/unit_dns: test/unit_dns.c src/net/dns.c src/tiny.c src/util.c src/fmt.c
build/test/unit_tls: test/unit_tls.c src/net/tlshello.c src/net/tlswatch.c \
	src/policy/netpolicy.c src/util.c src/fmt.c src/tiny.c
$(UNITS): test/tap.h | build
	mkdir -p build/test
	$(HOSTCC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^)

build/fuzz/policy_fuzz: fuzz/policy_fuzz.c $(POLICY_SRCS)
build/fuzz/quote_fuzz: fuzz/quote_fuzz.c src/quote.c src/util.c src/fmt.c
build/fuzz/proxyreq_fuzz: fuzz/proxyreq_fuzz.c src/net/proxyreq.c \
	src/policy/netpolicy.c src/util.c src/fmt.c src/tiny.c
build/fuzz/tlshello_fuzz: fuzz/tlshello_fuzz.c src/net/tlshello.c \
	src/net/tlswatch.c src/policy/netpolicy.c src/util.c src/fmt.c \
	src/tiny.c
build/fuzz/dns_fuzz: fuzz/dns_fuzz.c src/net/dns.c src/tiny.c src/util.c \
	src/fmt.c
$(FUZZERS): | build
	mkdir -p build/fuzz
	clang $(FUZZ_CFLAGS) -o $@ $^

# Each fuzzer for FUZZ_TIME seconds from the committed seed corpus.
fuzz: deps $(FUZZERS)
	FUZZ_TIME=$(FUZZ_TIME) bats -f libFuzzer test/units.bats

# sbexec under ASan and UBSan (clang, glibc, dynamic), then every suite.
build/asan/sbexec: $(SRCS) build/seccomp-bpf.c $(CJSON_SRC)/cJSON.c
	mkdir -p build/asan
	clang -std=c11 -D_GNU_SOURCE -O1 -g -Isrc -I$(CJSON_SRC) $(CJSON_DEFS) \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-DVERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' \
		-DCOMMIT='"$(COMMIT)"' -o $@ $^

asan: deps build/asan/sbexec $(UNITS)
	SBEXEC=$(CURDIR)/build/asan/sbexec FUZZ_TIME=0 bats test/

# make bench's profiling build: prof.h's marks compiled in.
PROF_OBJS = $(SRCS:src/%.c=build/prof/%.o)
build/prof/%.o: src/%.c $(CJSON_SRC)/cJSON.h | build
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DSBEXEC_PROFILE -c -o $@ $<

build/prof/sbexec: $(PROF_OBJS) build/cJSON.o build/seccomp-bpf.o
	$(CC) $(LDFLAGS) -o $@ $^

# The linker's map of sbexec's own link: what each object puts in it.
build/sbexec.map: $(OBJS) build/cJSON.o build/seccomp-bpf.o
	$(CC) $(LDFLAGS) -Wl,-Map=$@ -o build/sbexec.mapped $^

deps:
	@scripts/deps

# Benchmarks, not tests: the tables and BENCHMARKS.md (about 6 minutes).
# bench-peers installs firejail and srt to compare with (optional).
bench: deps sbexec build/prof/sbexec build/sbexec.map
	bench/run

bench-peers:
	bench/peers-install

lint:
	cppcheck --enable=warning,performance,portability --error-exitcode=1 \
		-q -D_GNU_SOURCE -D__x86_64__ -Isrc $(SRCS) tools/seccomp-gen.c

MAN1 = $(DESTDIR)$(PREFIX)/share/man/man1
MAN5 = $(DESTDIR)$(PREFIX)/share/man/man5
FARM = $(DESTDIR)$(PREFIX)/lib/sbexec/bin
ETC = $(DESTDIR)$(SYSCONFDIR)/sbexec

# The admin's policy is never overwritten; the farm's links are relative
# so that a DESTDIR staging tree stays correct once copied into place.
install: sbexec
	install -d $(DESTDIR)$(PREFIX)/bin $(MAN1) $(MAN5) $(FARM) $(ETC)
	install -m 755 sbexec $(DESTDIR)$(PREFIX)/bin/sbexec
	install -m 644 man/sbexec.1 $(MAN1)/sbexec.1
	install -m 644 man/sbexec.json.5 $(MAN5)/sbexec.json.5
	[ -e $(ETC)/policy.json ] || \
		install -m 644 policy.example.json $(ETC)/policy.json
	for n in ffmpeg ffprobe; do ln -sfn ../../../bin/sbexec $(FARM)/$$n; done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sbexec $(MAN1)/sbexec.1 \
		$(MAN5)/sbexec.json.5 $(FARM)/ffmpeg $(FARM)/ffprobe
	-rmdir $(FARM) $(DESTDIR)$(PREFIX)/lib/sbexec
	@echo "uninstall: $(ETC)/policy.json is left in place"

# The Debian package, built by dpkg-buildpackage from a copy of the
# tracked files as they are in the working tree (and the checked cJSON
# source), so that the checkout's build/ and its caches are not touched.
DEB = build/deb/sbexec_$(VERSION)_amd64.deb
deb: $(CJSON_SRC)/cJSON.c
	rm -rf build/deb
	mkdir -p build/deb/src/build/cjson
	git ls-files -z | xargs -0 cp -P --parents -t build/deb/src
	cp $(CJSON_SRC)/cJSON.c $(CJSON_SRC)/cJSON.h $(CJSON_SRC)/LICENSE \
		$(CJSON_SRC)/.verified build/deb/src/build/cjson/
	cd build/deb/src && SBEXEC_COMMIT=$(COMMIT) \
		dpkg-buildpackage -us -uc -b >../build.log 2>&1 || \
		{ tail -n 30 ../build.log; exit 1; }
	@echo "deb: $(DEB)"

# The release tarball: the static binary, stripped as the package's is
# (the same bytes), and what an install by hand needs (README, Install).
DIST = sbexec-$(VERSION)-x86_64-linux
dist: sbexec
	rm -rf build/dist/$(DIST) build/dist/$(DIST).tar.gz
	mkdir -p build/dist/$(DIST)
	install -m 755 sbexec build/dist/$(DIST)/sbexec
	strip --remove-section=.comment --remove-section=.note \
		build/dist/$(DIST)/sbexec	# as dh_strip does: the .deb's bytes
	install -m 644 man/sbexec.1 man/sbexec.json.5 policy.example.json \
		README.md SECURITY.md build/dist/$(DIST)/
	cd build/dist/$(DIST) && sha256sum sbexec sbexec.1 sbexec.json.5 \
		policy.example.json README.md SECURITY.md >SHA256SUMS
	tar -C build/dist --owner=0 --group=0 --numeric-owner --sort=name \
		-czf build/dist/$(DIST).tar.gz $(DIST)
	@echo "dist: build/dist/$(DIST).tar.gz"

demo: deps sbexec
	@scripts/demo

# Every suite, then the escape battery, the sandbox claims and the
# drop-in suite again under the Landlock backend inside a simulated
# container (DESIGN 9); one closing line counted from both TAP reports.
LANDLOCK_SUITES = test/escape.bats test/sandbox.bats test/compat.bats test/terminal.bats \
	test/reader.bats
test: deps sbexec $(UNITS) $(FUZZERS)
	mkdir -p build/landlock
	bats --report-formatter tap --output build test/; s=$$?; \
	echo "== again under the Landlock backend, in a simulated container"; \
	SBEXEC_BACKEND=landlock bats --report-formatter tap \
		--output build/landlock $(LANDLOCK_SUITES); l=$$?; \
	awk '/^not ok /{f++; next} /^ok .*# skip/{k++; next} /^ok /{p++} \
	END {printf "%d passed, %d failed, %d skipped\n", p, f, k}' \
		build/report.tap build/landlock/report.tap; \
	[ $$s -eq 0 ] && [ $$l -eq 0 ]

clean:
	rm -rf build sbexec

# Each object's headers, as the compiler found them (.dep, not .d: the
# .d files of a checkout built before the sources moved to src/ name the
# old paths, and no rule makes those).
-include $(OBJS:.o=.dep) $(PROF_OBJS:.o=.dep)

.PHONY: all deps demo test fuzz asan lint bench bench-peers install uninstall \
	deb dist FORCE \
	clean
