#!/usr/bin/env bats
# The drop-in contract: through a symlink, sbexec is the command.

load helper

setup() {
	common_setup
	sample
}

@test "symlinked ffprobe prints byte for byte what the real one prints" {
	ffprobe -v error -show_format -show_streams -of json sample.mp4 >"$T/real"
	"$BIN/ffprobe" -v error -show_format -show_streams -of json sample.mp4 >"$T/sbx"
	cmp "$T/real" "$T/sbx"
}

@test "the command's own failure status passes through" {
	run ffprobe -v error missing.mp4
	real=$status
	run "$BIN/ffprobe" -v error missing.mp4
	assert_equal "$status" "$real"
	assert_equal "$status" 1
	assert_output --partial "missing.mp4: No such file or directory"
}

@test "the symlink form takes no option of its own" {
	printf '{"commands": {"ffprobe": "/bin/true"}}' >"$T/evil.json"
	for opt in --policy="$T/evil.json" -p "--check" "-n"; do
		run ffprobe "$opt" sample.mp4
		real_status=$status real_output=$output
		run "$BIN/ffprobe" "$opt" sample.mp4
		assert_equal "$status" "$real_status"
		assert_equal "$output" "$real_output"
		refute_output --partial sbexec
	done
}

@test "the default audit sink, stderr, carries both records and the command runs" {
	write_policy '{"commands": {"ffprobe": "/usr/bin/ffprobe"}}'
	run --separate-stderr "$BIN/ffprobe" -v error -show_entries format=nb_streams -of csv=p=0 sample.mp4
	assert_success
	assert_output 2
	[[ ${stderr_lines[0]} == '{"type":"start",'* ]]
	[[ ${stderr_lines[1]} == '{"type":"end",'* ]]
}
