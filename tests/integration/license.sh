#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The license: LICENSE at the top is BSD-2-Clause and every source file says so on its first line.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
check "LICENSE is the BSD 2-Clause license" grep -q '^BSD 2-Clause License' "$TOP/LICENSE"
if sh "$TOP/tools/spdx.sh" --check >"$nb_tmp/spdx" 2>&1; then
	ok "every source file starts with its SPDX-License-Identifier line"
else
	notok "every source file starts with its SPDX-License-Identifier line (tools/spdx.sh --add)"
	sed 's/^/# /' "$nb_tmp/spdx" | head -20
fi
echo "1..$n"
