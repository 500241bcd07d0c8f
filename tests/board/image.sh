# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the board tests after tests/lib.sh: board_image ARCH builds (or reuses) the board
# image with tests/board/build.sh into $BUILD and sets $board_dir, or skips the whole script
# with build.sh's reason when the kernel package or a tool cannot be had here.
board_image() {
	_top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
	_build=${BUILD:-$(dirname "$NETBENCH")}
	_t0=$(date +%s)
	board_dir=$(sh "$_top/tests/board/build.sh" "$1" "$_build" 2>"$nb_tmp/board-build.log")
	_rc=$?
	case "$board_dir" in SKIP*) skip_all "board $1: ${board_dir#SKIP }" ;; esac
	if [ "$_rc" -ne 0 ] || [ ! -f "$board_dir/kernel" ]; then
		echo "not ok 1 - the $1 board image builds (tests/board/build.sh)"
		tail -20 "$nb_tmp/board-build.log" | sed 's/^/# /'
		echo "1..1"
		exit 1
	fi
	echo "# board image $1 ready in $(($(date +%s) - _t0)) s: $board_dir"
}
