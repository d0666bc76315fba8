#!/usr/bin/env bats
# The documents say what the code knows (issue 29): the example policy
# names every key of the schema, sbexec.json(5) carries the example as
# it is, and both man pages pass mandoc's lint without a warning.

load helper

setup() {
	common_setup
}

# schema_keys: every key of keys.c's tables (top level, per command,
# filesystem, limits, the network object), once each.
schema_keys() {
	sed -n 's/^[[:space:]]*{ "\([A-Za-z]*\)", \(cJSON_[A-Za-z]*\|-1\),.*/\1/p
		s/^[[:space:]]*LIMIT("\([A-Za-z]*\)",.*/\1/p' \
		"$TOP/src/policy/keys.c" | sort -u
}

# The network object's keys have no value that changes nothing: an
# empty allow is refused, and an object runs a proxy (bwrap only).
NET_OBJECT="allow deny allowAddresses"
# binShell neither: given, a shell stands in the chain (opt-in, none by
# default).
NO_INERT="$NET_OBJECT binShell"

@test "the schema's key list is read from keys.c (the test cannot pass on nothing)" {
	run schema_keys
	assert_line commands
	assert_line runMemoryBytes
	assert_line privateTmp
	assert_line allowAddresses
	[ "${#lines[@]}" -ge 30 ] || fail "only ${#lines[@]} keys: $output"
}

@test "policy.example.json names every key the schema knows but a network object's and binShell" {
	local k missing=
	for k in $(schema_keys); do
		case " $NO_INERT " in *" $k "*) continue ;; esac
		grep -q "\"$k\":" "$TOP/policy.example.json" ||
			missing="$missing $k"
	done
	[ -z "$missing" ] || fail "not in policy.example.json:$missing"
}

@test "the network object's keys are in sbexec.json(5)'s example" {
	local k
	for k in $NET_OBJECT; do
		grep -q "\"$k\":" "$TOP/man/sbexec.json.5" ||
			fail "$k: in no example of sbexec.json(5)"
	done
}

@test "policy.example.json passes --check" {
	sed "s|\"audit\": \"stderr\"|\"audit\": \"$AUDIT\"|" \
		"$TOP/policy.example.json" >"$SBEXEC_POLICY"
	run "$SBEXEC" -p "$SBEXEC_POLICY" --check
	assert_success
}

@test "sbexec.json(5) carries policy.example.json as it is" {
	awk '/names every key/ { want = 1 }
		want && /^\.Ed/ { exit }
		want && on { print }
		want && /^\.Bd -literal/ { on = 1 }' \
		"$TOP/man/sbexec.json.5" >"$T/copy.json"
	[ -s "$T/copy.json" ] || fail "no copy of the example found"
	diff -u "$TOP/policy.example.json" "$T/copy.json"
}

# lint PAGE: mandoc's warnings and errors (its exit status is 0 with
# none; 2 for warnings, 3 and more for errors).
lint() {
	command -v mandoc >/dev/null ||
		fail "mandoc is not installed (scripts/deps installs it)"
	run mandoc -T lint -W warning "$TOP/man/$1"
	assert_success
	assert_output ''
}

@test "sbexec(1) has no mandoc warning" {
	lint sbexec.1
}

@test "sbexec.json(5) has no mandoc warning" {
	lint sbexec.json.5
}
