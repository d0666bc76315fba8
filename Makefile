# sbexec: a static musl binary. `make deps` installs what the build and
# the tests need (Debian/Ubuntu); `make demo` and `make test` use it.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
VERSION = 0.1.0
CC = musl-gcc
HOSTCC = cc
CJSON_SRC ?= build/cjson
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wconversion
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -I$(CJSON_SRC) \
	-DVERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' -MMD -MP
ifdef CI
CFLAGS += -Werror
endif
LDFLAGS += -static

SRCS = sbexec.c options.c policy.c path.c decide.c env.c quote.c \
	sandbox.c audit.c json.c sha256.c supervise.c pump.c check.c util.c
OBJS = $(SRCS:%.c=build/%.o)

all: sbexec

sbexec: $(OBJS) build/cJSON.o build/seccomp-bpf.o
	$(CC) $(LDFLAGS) -o $@ $^

build/%.o: %.c $(CJSON_SRC)/cJSON.h | build
	$(CC) $(CFLAGS) -c -o $@ $<

# cJSON is Debian's patched source, fetched and checked, never committed.
build/cJSON.o: $(CJSON_SRC)/cJSON.c | build
	$(CC) -std=c11 -O2 -c -o $@ $<

# The seccomp filter: libseccomp on the build host, bytes in the binary.
build/seccomp-gen: tools/seccomp-gen.c | build
	$(HOSTCC) -O2 $(WARN) -o $@ $< -lseccomp

build/seccomp-bpf.c: build/seccomp-gen
	build/seccomp-gen >$@

build/seccomp-bpf.o: build/seccomp-bpf.c
	$(CC) -O2 -c -o $@ $<

$(CJSON_SRC)/cJSON.c $(CJSON_SRC)/cJSON.h:
	scripts/fetch-cjson $(CJSON_SRC)

build:
	mkdir -p build

deps:
	@scripts/deps

demo: deps sbexec
	@scripts/demo

test: deps sbexec
	bats test/

clean:
	rm -rf build sbexec

-include $(OBJS:.o=.d)

.PHONY: all deps demo test clean
