#!/usr/bin/env bats
# The layout shows the architecture (issue 34, README "Where things are"):
# the sources in src/, a folder per subsystem, each using only the
# folders below it and src/'s helpers, and no two sources including each
# other's headers. Read from the #include lines themselves.

load helper

# layout_check: python3 over src/; prints each breach and the number of
# includes it read.
layout_check() {
	python3 - "$TOP/src" <<-'EOF'
	import glob, os, re, sys
	src = sys.argv[1]
	helpers = {"util", "fmt", "tiny", "path", "quote", "sha256", "prof"}
	# Bottom to top, as README's table reads from the bottom.
	rank = {"policy": 0, "audit": 1, "sandbox": 2, "net": 3, "run": 4,
	        "": 5}
	def where(mod):
	    d = os.path.dirname(mod)
	    return -1 if d == "" and mod in helpers else rank[d]
	incs, n = {}, 0
	for f in glob.glob(src + "/*.[ch]") + glob.glob(src + "/*/*.[ch]"):
	    mod = os.path.relpath(f, src)[:-2]
	    hs = re.findall(r'^#include "([^"]+)\.h"', open(f).read(), re.M)
	    hs = [h for h in hs if os.path.exists(os.path.join(src, h + ".h"))]
	    n += len(hs)
	    incs.setdefault(mod, set())
	    if f.endswith(".c"):
	        incs[mod] |= set(hs)
	    for h in hs:
	        if h != mod and where(h) > where(mod) or \
	                where(mod) == -1 and where(h) != -1:
	            print("upward: %s includes %s.h" % (f[len(src) + 1:], h))
	for a in incs:
	    for b in incs[a]:
	        if a < b and a in incs.get(b, ()):
	            print("circle: %s.c and %s.c include each other" % (a, b))
	print("includes: %d" % n)
	EOF
}

@test "each folder of src/ includes only the folders below it and src/'s helpers; no two sources include each other" {
	run layout_check
	assert_success
	refute_line --partial "upward:"
	refute_line --partial "circle:"
	# It read the sources (a check of nothing would pass too).
	assert_line --regexp '^includes: [0-9]{3,}$'
}

@test "the layout check sees a circle and an upward include (in a copy of src/ given one of each)" {
	cp -r "$TOP/src" "$BATS_TEST_TMPDIR/src"
	printf '#include "run/supervise.h"\n' >>"$BATS_TEST_TMPDIR/src/policy/keys.c"
	: >"$BATS_TEST_TMPDIR/src/run/supervise.h"
	printf '#include "run/say.h"\n' >>"$BATS_TEST_TMPDIR/src/audit/audit.c"
	TOP=$BATS_TEST_TMPDIR run layout_check
	assert_line "upward: policy/keys.c includes run/supervise.h"
	assert_line "circle: audit/audit.c and run/say.c include each other"
}
