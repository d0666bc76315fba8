#!/usr/bin/env bats
# Protected names (DESIGN 2): inside every allowWrite path these stay
# read-only, since writing them runs code on the host later (a login
# shell, git, an editor, the X session). Every name of the list is
# tried, each way the command could change it: write, append, truncate,
# remove, rename onto, hard link onto. Directly, the same script changes
# every one; through sbexec (bwrap) none; under Landlock, which cannot
# carve a name out of a writable tree, the run is refused naming it.

load helper
bats_require_minimum_version 1.5.0

# The list, as sbexec.json(5) gives it: files, then directories.
FILES=".gitconfig .gitmodules .bashrc .bash_profile .bash_login .bash_logout
	.bash_aliases .profile .zshrc .zshenv .zprofile .zlogin .zlogout .kshrc
	.mkshrc .inputrc .envrc .vimrc .exrc .xprofile .xsessionrc .xinitrc
	.npmrc"
DIRS=".git .vscode .idea .gnupg .local .config .ssh"

setup() {
	common_setup
}

# plant DIR: every protected name in DIR, each holding "original".
plant() {
	local n
	for n in $FILES; do echo original >"$1/$n"; done
	for n in $DIRS; do mkdir -p "$1/$n"; echo original >"$1/$n/f"; done
}

# The attack: each way to change each name, in the cwd; it goes on
# past every failure.
ATTACK='for n in $FILES; do
	echo w >"$n"; echo a >>"$n"; true >"$n"; rm -f "$n"
	echo r >".new$n"; mv -f ".new$n" "$n"
	echo l >".lnk$n"; ln -f ".lnk$n" "$n"
done 2>/dev/null
for n in $DIRS; do
	echo w >"$n/f"; echo a >>"$n/f"; true >"$n/f"; echo new >"$n/new"
	rm -rf "$n"; mkdir ".new$n"; mv -T ".new$n" "$n"
done 2>/dev/null; exit 0'

# untouched DIR: every name still holds "original" and nothing else.
untouched() {
	local n bad=
	for n in $FILES; do
		[ "$(cat "$1/$n" 2>/dev/null)" = original ] || bad="$bad $n"
	done
	for n in $DIRS; do
		[ "$(cat "$1/$n/f" 2>/dev/null)" = original ] &&
			[ "$(ls -A "$1/$n")" = f ] || bad="$bad $n/"
	done
	[ -z "$bad" ] || { echo "changed:$bad"; return 1; }
}

@test "directly, the attack changes every protected name" {
	local n changed=0
	plant "$W"
	run -0 env FILES="$FILES" DIRS="$DIRS" sh -c "$ATTACK"
	for n in $FILES; do
		[ "$(cat "$W/$n" 2>/dev/null)" = original ] || changed=$((changed + 1))
	done
	for n in $DIRS; do
		[ -e "$W/$n/f" ] || changed=$((changed + 1))
	done
	assert_equal "$changed" "$(wc -w <<<"$FILES $DIRS")"
}

@test "bwrap: every protected name in a writable cwd stays as it was, each way it is attacked" {
	landlock && skip "the bwrap backend's (Landlock refuses: next test)"
	plant "$W"
	policy ', "envAllowList": ["PATH", "FILES", "DIRS"],
	  "filesystem": {"allowWrite": ["."]}'
	FILES=$FILES DIRS=$DIRS run -0 sbx sh -c "$ATTACK"
	run untouched "$W"
	assert_success
	# The attack ran: what it may write beside them, it wrote.
	[ -e "$W/.new.bashrc" ] || [ -e "$W/.lnk.bashrc" ]
}

@test "landlock: a writable tree holding any protected name is refused (125), naming it" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	local n
	for n in $FILES $DIRS; do
		rm -rf "${W:?}"/.[!.]* "$W"/*
		mkdir -p "$W/x"
		case " $DIRS " in
		*" $n "*) mkdir "$W/$n" ;;
		*) echo original >"$W/$n" ;;
		esac
		policy ', "sandbox": "landlock", "filesystem": {"allowWrite": ["."]}'
		run -125 sbx sh -c 'echo ran >x/ran'
		assert_output --partial "cannot keep $W/$n (protected name) out of the writable tree $W"
		[ ! -e "$W/x/ran" ]
	done
}

@test "--check warns when an allowWrite path is a home directory or holds one" {
	local home
	home=$(getent passwd "$(id -un)" | cut -d: -f6)
	[ -d "$home" ] && [ "$home" != / ] || skip "no home directory here"
	policy ', "filesystem": {"allowWrite": ["~"]}'
	run sbx --check
	assert_output --partial "warning: filesystem.allowWrite: $(realpath "$home") is the home directory"
	# /home, which holds a home directory, where one is there.
	home=$(getent passwd | cut -d: -f6 | while read -r h; do
		case $h in /home/?*) [ -d "$h" ] && echo "$h" ;; esac; done |
		head -n 1)
	if [ -n "$home" ]; then
		policy ", \"filesystem\": {\"allowWrite\": [\"$(dirname "$(realpath "$home")")\"]}"
		run sbx --check
		assert_output --partial "holds the home directory $(realpath "$home")"
	fi
	policy ', "filesystem": {"allowWrite": ["."]}'
	run sbx --check
	refute_output --partial "the home directory"
}
