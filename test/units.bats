#!/usr/bin/env bats
# The C unit drivers, the quoting proof across five shells and the
# fuzzers, built by `make test` into build/ and run here so that their
# results count with the rest.

load helper

B="$TOP/build"

@test "quote.c: unit tests" {
	run "$B/test/unit_quote"
	assert_success
	refute_output --partial "not ok"
}

@test "env.c: unit tests" {
	run "$B/test/unit_env"
	assert_success
	refute_output --partial "not ok"
}

@test "util.c: read_number and dec_number, the readers of the kernel's numbers" {
	run "$B/test/unit_util"
	assert_success
	refute_output --partial "not ok"
}

@test "fmt.c: printf's integers and strings, the buffer contract and addresses, as libc has them" {
	run "$B/test/unit_fmt"
	assert_success
	refute_output --partial "not ok"
	assert_output --partial "ok 4 "
}

@test "dns.c: which replies count and what they give, /etc/hosts lines, resolv.conf and its bounds" {
	run "$B/test/unit_dns"
	assert_success
	refute_output --partial "not ok"
	assert_output --partial "ok 19 "
}

@test "tiny.c: sort, substring search and UTC date as libc has them" {
	run "$B/test/unit_tiny"
	assert_success
	refute_output --partial "not ok"
	assert_output --partial "ok 5 "
}

@test "sha256.c: FIPS 180-4 vectors" {
	run "$B/test/unit_sha256"
	assert_success
	refute_output --partial "not ok"
}

@test "netpolicy.c and proxyreq.c: address classes, host rules, requests" {
	run "$B/test/unit_net"
	assert_success
	refute_output --partial "not ok"
	assert_output --partial "ok 1 "
}

@test "tlshello.c: the ClientHello a tunnel must begin with, built field by field and as OpenSSL sends it" {
	run "$B/test/unit_tls" "$TOP/fuzz/corpus/tlshello/openssl-media.test"
	assert_success
	refute_output --partial "not ok"
	assert_output --partial "ok 1 "
	assert_output --partial "OpenSSL's own ClientHello for media.test passes"
}

@test "quoting round-trips 10000 random argv per shell through sh, bash, dash, zsh and ksh" {
	run "$B/test/quote_roundtrip" 10000
	assert_success
	refute_output --partial "not ok"
	for sh in /bin/sh /bin/bash /bin/dash /usr/bin/zsh /usr/bin/ksh; do
		assert_output --partial "ok"
		assert_output --partial "$sh"
	done
}

@test "cppcheck finds nothing in the sources" {
	run make -s -C "$TOP" lint
	assert_success
	assert_output ""
}

# FUZZ_TIME=0 skips these (make asan, quick local runs); CI runs 60 s each.
fuzz() {
	local name=$1 secs=${FUZZ_TIME:-60}
	[ "$secs" -gt 0 ] || skip "FUZZ_TIME=0"
	mkdir -p "$B/fuzz/corpus-$name"
	run "$B/fuzz/${name}_fuzz" -max_total_time="$secs" -close_fd_mask=2 \
		"$B/fuzz/corpus-$name" "$TOP/fuzz/corpus/$name"
	assert_success
	assert_output --partial "Done"
	refute_output --partial "ERROR: "
}

@test "the policy loader survives libFuzzer (ASan, UBSan, leaks)" {
	fuzz policy
}

@test "quoting round-trips under libFuzzer" {
	fuzz quote
}

@test "the proxy's request parser survives libFuzzer, and passes on one clean request" {
	fuzz proxyreq
}

@test "the ClientHello check survives libFuzzer, and passes only the CONNECT host" {
	fuzz tlshello
}

@test "the DNS reply reader survives libFuzzer: only replies to the query, only NOERROR's addresses, at most ADDRS_MAX" {
	fuzz dns
}
