# SPDX-License-Identifier: BSD-2-Clause
# netbench: plain GNU make. Every variable is overridable for cross builds, e.g.
#   make CC=powerpc-linux-gnu-gcc STATIC=1 BUILD=build-ppc
#   make MUSL=1 STATIC=1 BUILD=build-musl          # the small agent: musl, -Os, gc-sections, stripped
#   make MUSL=1 STATIC=1 AGENT=1 BUILD=build-agent # agent only: serve, stream, crypto, mem
# Optional libraries (OpenSSL libcrypto for `crypto`) are detected in one place below; the core and
# the agent need libc only. NO_OPENSSL=1 forces a build without it. SQLite (the results store: `results`,
# `compare`, `report`, `--save`) is the controller's alone: NO_SQLITE=1, and every STATIC=1 build,
# leave it out. WERROR=1 turns warnings into errors (make check and CI do; packagers' builds
# leave it off).

VERSION   := $(shell cat '$(CURDIR)/VERSION' 2>/dev/null || echo unknown)
CC        ?= cc
# A cross compiler's own strip (powerpc-linux-gnu-gcc: powerpc-linux-gnu-strip) where it exists.
NB_CROSS_STRIP = $(patsubst %-gcc,%-strip,$(filter-out musl-gcc,$(filter %-gcc,$(notdir $(firstword $(CC))))))
STRIP     ?= $(or $(if $(NB_CROSS_STRIP),$(shell command -v $(NB_CROSS_STRIP) 2>/dev/null)),strip)
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
DATADIR   ?= $(PREFIX)/share
DOCDIR    ?= $(PREFIX)/share/doc/netbench
SYSCONFDIR ?= /etc
SYSTEMDUNITDIR ?= /lib/systemd/system
DESTDIR   ?=
BUILD     ?= build
WERROR    ?= 0
LDFLAGS   ?=
LDLIBS    ?=

# The small build (implied by MUSL=1 and AGENT=1): size over speed, unused sections dropped,
# symbols stripped.
ifneq ($(filter 1,$(MUSL) $(AGENT)),)
SMALL ?= 1
endif
ifeq ($(SMALL),1)
# No unwind tables (.eh_frame): C without exceptions needs them only for a debugger's
# backtrace, and in the agent-only build they were 41 KB of 460 KB (busybox builds the same way).
CFLAGS    ?= -Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
	     -fno-unwind-tables
# -z noseparate-code: binutils' default pads the read-only data before and after the code to
# whole pages of the file (up to 8 KiB of zeros in a 450 KiB agent); on a board's flash those
# bytes are wasted. The code stays read-only and executable, the data writable, not executable.
NB_SMALL_LDFLAGS := -Wl,--gc-sections -s -Wl,-z,noseparate-code
# At -Os gcc's value-range analysis loses the bounds it has at -O2 and flags snprintf calls into
# buffers it cannot size as possible truncation; the -O2 builds (gcc and clang) keep the warning
# on the same code.
NB_SMALL_WARN := -Wno-format-truncation
else
CFLAGS    ?= -O2 -g
endif

# The git revision only when this source tree is itself the git work tree (not a tarball unpacked
# inside some other repository).
ifeq ($(shell git -C '$(CURDIR)' rev-parse --show-toplevel 2>/dev/null),$(realpath $(CURDIR)))
GITREV ?= $(shell git -C '$(CURDIR)' rev-parse --short=12 HEAD 2>/dev/null)
endif
GITREV := $(or $(GITREV),unknown)

WARN   := -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
          -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN   += -Werror
endif
WARN   += $(NB_SMALL_WARN)
NB_CPPFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Isrc -DNB_VERSION='"$(VERSION)"' -DNB_GITREV='"$(GITREV)"' \
               -DNB_DATADIR='"$(DATADIR)"'
NB_LDLIBS   := -pthread -lm

# musl: Debian's musl-gcc wrapper for this machine, or a cross gcc with the target's musl specs
# (musl-dev for that architecture). musl ships no kernel headers: the target's linux/, asm/ and
# asm-generic/ are linked into $(BUILD)/musl-kernel-headers.
ifeq ($(MUSL),1)
ifeq ($(origin CC),default)
CC := musl-gcc
endif
NB_MUSL_GCC    := $(if $(filter musl-gcc,$(notdir $(CC))),$(or $(REALGCC),gcc),$(CC))
NB_MUSL_ARCH   := $(shell $(NB_MUSL_GCC) -print-multiarch 2>/dev/null)
ifneq ($(filter musl-gcc,$(notdir $(CC))),musl-gcc)
MUSL_SPECS     ?= /usr/lib/$(subst -gnu,-musl,$(NB_MUSL_ARCH))/musl-gcc.specs
NB_MUSL_SPECS  := $(MUSL_SPECS)
ifeq ($(wildcard $(NB_MUSL_SPECS)),)
$(error netbench: MUSL=1 with CC=$(CC): no $(NB_MUSL_SPECS) (musl-dev for $(NB_MUSL_ARCH) is not installed; see docs/size.md))
endif
override CC := $(CC) -specs $(NB_MUSL_SPECS)
endif
NB_KHDR := $(firstword $(wildcard /usr/include/$(NB_MUSL_ARCH)/asm /usr/$(NB_MUSL_ARCH)/include/asm))
ifeq ($(NB_KHDR),)
$(error netbench: MUSL=1: no kernel headers (asm/) for $(NB_MUSL_ARCH); install linux-libc-dev for it)
endif
NB_KHDR_DIR := $(BUILD)/musl-kernel-headers
$(shell mkdir -p '$(NB_KHDR_DIR)' && ln -sfn '$(NB_KHDR)' '$(NB_KHDR_DIR)/asm' && \
	ln -sfn '$(firstword $(wildcard $(dir $(NB_KHDR))linux /usr/include/linux))' '$(NB_KHDR_DIR)/linux' && \
	ln -sfn '$(firstword $(wildcard $(dir $(NB_KHDR))asm-generic /usr/include/asm-generic))' '$(NB_KHDR_DIR)/asm-generic')
NB_CPPFLAGS += -idirafter $(NB_KHDR_DIR)
NO_OPENSSL ?= 1
NO_SQLITE ?= 1
endif

# The agent-only build: what a board runs alone (serve and the observer, stream's receiver,
# crypto, mem); the controller's subcommands are not in it (src/main.c).
ifeq ($(AGENT),1)
NB_CPPFLAGS += -DNB_AGENT_ONLY
endif

ifeq ($(STATIC),1)
LDFLAGS += -static
NO_OPENSSL ?= 1
NO_SQLITE ?= 1
endif
LDFLAGS += $(NB_SMALL_LDFLAGS)

# Optional libraries, all detected here: $(call nb_optlib,NAME,pkg-config module,probe program).
# pkg-config is the target's (<triplet>-pkg-config when it exists; PKG_CONFIG, PKG_CONFIG_LIBDIR
# and PKG_CONFIG_SYSROOT_DIR are honoured), and its flags must compile and link the probe with
# $(CC): a cross build handed the build machine's libraries says so in one line and goes without.
NB_TARGET  := $(shell $(CC) -dumpmachine 2>/dev/null)
PKG_CONFIG ?= $(if $(shell command -v $(NB_TARGET)-pkg-config 2>/dev/null),$(NB_TARGET)-pkg-config,pkg-config)
define nb_optlib
ifeq ($$(NO_$(1)),)
ifeq ($$(shell $$(PKG_CONFIG) --exists $(2) 2>/dev/null && echo y),y)
NB_$(1)_CFLAGS := $$(shell $$(PKG_CONFIG) --cflags $(2))
NB_$(1)_LIBS   := $$(shell $$(PKG_CONFIG) --libs $(2))
ifeq ($$(shell printf '$$(NB_PROBE_$(1))' | $$(CC) $$(NB_$(1)_CFLAGS) -x c - -o /dev/null $$(NB_$(1)_LIBS) >/dev/null 2>&1 && echo y),y)
NB_CPPFLAGS += -DHAVE_$(1) $$(NB_$(1)_CFLAGS)
NB_LDLIBS   += $$(NB_$(1)_LIBS)
else
$$(info netbench: $(2) from $$(PKG_CONFIG) does not link for $$(NB_TARGET): building without $(1) (point PKG_CONFIG_LIBDIR or PKG_CONFIG_SYSROOT_DIR at the target's, or NO_$(1)=1))
endif
endif
endif
endef
NB_PROBE_OPENSSL := \#include <openssl/evp.h>\nint main(void) { return EVP_MD_CTX_new() == 0; }\n
$(eval $(call nb_optlib,OPENSSL,libcrypto))

NB_PROBE_SQLITE := \#include <sqlite3.h>\nint main(void) { return sqlite3_libversion_number() == 0; }\n
$(eval $(call nb_optlib,SQLITE,sqlite3))

# 64-bit atomics on 32-bit PowerPC live in libatomic.
ifneq ($(shell echo 'int main(void){return 0;}' | $(CC) -x c - -latomic -o /dev/null 2>/dev/null && echo y),)
NB_LDLIBS += -latomic
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

CORE_SRC  := $(sort $(wildcard src/core/*/*.c))
FRONT_SRC := $(sort $(wildcard src/*.c src/cmd/*.c))
UNIT_SRC  := $(sort $(wildcard tests/unit/t_*.c))
CORE_OBJ  := $(CORE_SRC:%.c=$(BUILD)/%.o)
FRONT_OBJ := $(FRONT_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
ASAN_DIR  := $(BUILD)/asan
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_OBJ  := $(CORE_SRC:%.c=$(ASAN_DIR)/%.o) $(ASAN_DIR)/tests/unit/tap.o
ASAN_BIN  := $(UNIT_SRC:tests/unit/%.c=$(ASAN_DIR)/tests/%)
MAN_PARTS := $(sort $(wildcard docs/man/*.1))

all: $(BUILD)/netbench $(BUILD)/netbench.1

# The version stamp goes in with -D, which make does not see: a file that uses it depends on
# $(BUILD)/version.stamp, rewritten only when VERSION or the git revision changed, so a binary
# built after a commit never reports the commit before it.
NB_STAMP  := $(BUILD)/version.stamp
NB_STAMPED := $(shell mkdir -p '$(BUILD)' && \
	{ [ "$$(cat '$(NB_STAMP)' 2>/dev/null)" = '$(VERSION) $(GITREV)' ] || \
	  echo '$(VERSION) $(GITREV)' >'$(NB_STAMP)'; } && \
	grep -l 'NB_VERSION\|NB_GITREV' $(CORE_SRC) $(FRONT_SRC))
$(NB_STAMPED:%.c=$(BUILD)/%.o) $(filter $(ASAN_DIR)/src/core/%,$(NB_STAMPED:%.c=$(ASAN_DIR)/%.o)): $(NB_STAMP)

$(BUILD)/netbench: $(FRONT_OBJ) $(BUILD)/libnbcore.a
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(FRONT_OBJ) $(BUILD)/libnbcore.a $(NB_LDLIBS) $(LDLIBS)

$(BUILD)/libnbcore.a: $(CORE_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# Each object's dependency file names it both as given and as an absolute path: a build
# directory made with BUILD=build-arm and later with BUILD=$$PWD/build-arm is the same directory,
# and a header change must rebuild its objects either way.
NB_DEPFLAGS = -MMD -MP $(addprefix -MT ,$(sort $@ $(abspath $@)))

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(NB_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(NB_DEPFLAGS) -c -o $@ $<

$(ASAN_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC-SAN  $<"
	$(Q)$(CC) $(NB_CPPFLAGS) $(CPPFLAGS) $(WARN) -O1 -g $(SAN_FLAGS) $(NB_DEPFLAGS) -c -o $@ $<

$(BUILD)/tests/t_%: tests/unit/t_%.c $(BUILD)/tests/unit/tap.o $(BUILD)/libnbcore.a
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	$(Q)$(CC) $(NB_CPPFLAGS) $(CPPFLAGS) -Itests/unit $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(BUILD)/tests/unit/tap.o $(BUILD)/libnbcore.a $(NB_LDLIBS) $(LDLIBS)

$(ASAN_DIR)/tests/t_%: tests/unit/t_%.c $(ASAN_OBJ)
	@mkdir -p $(dir $@)
	@echo "  TEST-SAN $@"
	$(Q)$(CC) $(NB_CPPFLAGS) $(CPPFLAGS) -Itests/unit $(WARN) -O1 -g $(SAN_FLAGS) -o $@ $< \
		$(ASAN_OBJ) $(NB_LDLIBS) $(LDLIBS)

$(BUILD)/netbench.1: $(MAN_PARTS)
	@mkdir -p $(dir $@)
	$(Q)$(NB_SUBST) $(MAN_PARTS) > $@

# Unit tests alone (no root, no network): what a cross build runs under qemu-user.
unit: $(UNIT_BIN)
	$(Q)sh tests/run.sh --unit-only $(BUILD)

# Everything: unit tests, the same under ASan+UBSan (where the compiler has them), integration
# tests (root, namespaces; they skip with a reason otherwise). Ends with "N passed, N failed".
# Development and CI: warnings are errors (WERROR=0 on the command line turns that off).
check: export WERROR := 1
check: deps
	$(Q)$(MAKE) --no-print-directory all $(UNIT_BIN)
	$(Q)if $(MAKE) --no-print-directory asan-units >/dev/null 2>$(BUILD)/asan-build.log; then \
		echo "sanitizer unit tests built"; else echo "sanitizer build failed: see $(BUILD)/asan-build.log"; \
		cat $(BUILD)/asan-build.log; exit 1; fi
	$(Q)sh tests/run.sh $(BUILD)

asan-units: $(ASAN_BIN)

# The Debian package end to end (root): built in a temporary copy, lintian, dpkg -i, checks, purge.
package-check:
	$(Q)sh tests/package.sh

# The board farm: labgrid boots the emulated board (armhf, or BOARD=ppc) and runs tput, stream
# and rate against it (farm/run.sh; docs/farm.md). BUILD's netbench is the controller.
farm: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh farm/run.sh $(BUILD) '' $(or $(BOARD),armhf)

# make demo BOARD=armhf (or x86_64, ppc): the demo on an emulated board (tests/demo_board.sh).
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(if $(BOARD),sh tests/demo_board.sh $(BUILD) $(BOARD),sh tests/demo.sh $(BUILD))

# Installs missing Debian packages when run as root; only reports them otherwise.
deps:
	$(Q)sh tests/deps.sh

# Installation as a distribution expects: PREFIX, DESTDIR, BINDIR, MANDIR, DOCDIR; INSTALL_STRIP=1
# (or install-strip) strips the binary. install-agent adds the agent's systemd unit, its
# sysvinit/BusyBox init script and its settings (@SYSCONFDIR@/default/netbench, kept if present).
INSTALL ?= install
# The documents keep the tree's layout under DOCDIR, so the README's links (docs/...) resolve there.
NB_DOCS := $(sort $(wildcard docs/*.md docs/*.png))
NB_SCHEMAS := $(sort $(wildcard docs/schema/*.json))
NB_SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' \
	-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g'

# The board builder `lab up --dut vm:ARCH` runs when an image is missing, with the source it
# builds the board's static netbench from (DATADIR/netbench/board); the board's init without its
# #! line (build.sh puts it back: the board's interpreter is its busybox, not the host's).
NB_BOARD_FILES := tests/board/ppc.sh tests/board/ppc.config tests/kernel-cache.sh

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 0755 $(if $(filter 1,$(INSTALL_STRIP)),-s --strip-program=$(STRIP)) \
		$(BUILD)/netbench $(DESTDIR)$(BINDIR)/netbench
	$(NB_SUBST) $(MAN_PARTS) > $(DESTDIR)$(MANDIR)/man1/netbench.1
	chmod 0644 $(DESTDIR)$(MANDIR)/man1/netbench.1
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/docs
	$(INSTALL) -m 0644 README.md LICENSE $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 0644 $(NB_DOCS) $(DESTDIR)$(DOCDIR)/docs/
	$(if $(NB_SCHEMAS),$(INSTALL) -d $(DESTDIR)$(DOCDIR)/docs/schema)
	$(if $(NB_SCHEMAS),$(INSTALL) -m 0644 $(NB_SCHEMAS) $(DESTDIR)$(DOCDIR)/docs/schema/)
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/netbench/board
	$(INSTALL) -m 0755 tests/board/build.sh $(DESTDIR)$(DATADIR)/netbench/board/
	$(INSTALL) -m 0644 $(NB_BOARD_FILES) $(DESTDIR)$(DATADIR)/netbench/board/
	sed '1{/^#!/d}' tests/board/init > $(DESTDIR)$(DATADIR)/netbench/board/init
	chmod 0644 $(DESTDIR)$(DATADIR)/netbench/board/init
	tar -C '$(CURDIR)' --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		-cf - Makefile VERSION src | gzip -9n > $(DESTDIR)$(DATADIR)/netbench/board/netbench-src.tar.gz
	chmod 0644 $(DESTDIR)$(DATADIR)/netbench/board/netbench-src.tar.gz

install-strip:
	$(Q)$(MAKE) --no-print-directory install INSTALL_STRIP=1

install-agent:
	$(INSTALL) -d $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSCONFDIR)/init.d $(DESTDIR)$(SYSCONFDIR)/default
	$(NB_SUBST) init/netbench.service.in > $(DESTDIR)$(SYSTEMDUNITDIR)/netbench.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/netbench.service
	$(NB_SUBST) init/netbench.init.in > $(DESTDIR)$(SYSCONFDIR)/init.d/netbench
	chmod 0755 $(DESTDIR)$(SYSCONFDIR)/init.d/netbench
	[ -e $(DESTDIR)$(SYSCONFDIR)/default/netbench ] || \
		$(INSTALL) -m 0644 init/netbench.default $(DESTDIR)$(SYSCONFDIR)/default/netbench

format:
	clang-format -i $(CORE_SRC) $(FRONT_SRC) $(wildcard src/*/*.h src/core/*/*.h) $(UNIT_SRC)

clean:
	rm -rf $(BUILD)

# The peer-facing parsers under libFuzzer for longer than make check does (FUZZ_TIME s each).
FUZZ_TIME ?= 120
fuzz:
	$(Q)FUZZ_RUNS=-1 FUZZ_TIME=$(FUZZ_TIME) TOP=. sh tests/integration/fuzz_peer.sh
	$(Q)TOP=. sh tests/integration/fuzz.sh

.PHONY: farm package-check all check unit asan-units demo deps install install-strip install-agent format clean fuzz

-include $(CORE_OBJ:.o=.d) $(FRONT_OBJ:.o=.d) $(ASAN_OBJ:.o=.d)
