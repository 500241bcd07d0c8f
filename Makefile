# netbench: plain GNU make. Every variable is overridable for cross builds, e.g.
#   make CC=powerpc-linux-gnu-gcc STATIC=1 BUILD=build-ppc
# Optional libraries (OpenSSL libcrypto for `crypto`) are detected here; the core and the agent
# need libc only. NO_OPENSSL=1 forces a build without it.

VERSION   := 0.1.0
CC        ?= cc
PKG_CONFIG ?= pkg-config
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
DESTDIR   ?=
BUILD     ?= build
CFLAGS    ?= -O2 -g
LDFLAGS   ?=
LDLIBS    ?=

GITREV := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
WARN   := -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
          -Wno-unused-parameter
NB_CPPFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Isrc -DNB_VERSION='"$(VERSION)"' -DNB_GITREV='"$(GITREV)"'
NB_LDLIBS   := -pthread -lm

ifeq ($(STATIC),1)
LDFLAGS += -static
NO_OPENSSL ?= 1
endif
ifeq ($(NO_OPENSSL),)
ifeq ($(shell $(PKG_CONFIG) --exists libcrypto 2>/dev/null && echo y),y)
NB_CPPFLAGS += -DHAVE_OPENSSL $(shell $(PKG_CONFIG) --cflags libcrypto)
NB_LDLIBS   += $(shell $(PKG_CONFIG) --libs libcrypto)
endif
endif
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

$(BUILD)/netbench: $(FRONT_OBJ) $(BUILD)/libnbcore.a
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(FRONT_OBJ) $(BUILD)/libnbcore.a $(NB_LDLIBS) $(LDLIBS)

$(BUILD)/libnbcore.a: $(CORE_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(NB_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

$(ASAN_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC-SAN  $<"
	$(Q)$(CC) $(NB_CPPFLAGS) $(CPPFLAGS) $(WARN) -O1 -g $(SAN_FLAGS) -MMD -MP -c -o $@ $<

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
	$(Q)sed 's/@VERSION@/$(VERSION)/' $(MAN_PARTS) > $@

# Unit tests alone (no root, no network): what a cross build runs under qemu-user.
unit: $(UNIT_BIN)
	$(Q)sh tests/run.sh --unit-only $(BUILD)

# Everything: unit tests, the same under ASan+UBSan (where the compiler has them), integration
# tests (root, namespaces; they skip with a reason otherwise). Ends with "N passed, N failed".
check: deps
	$(Q)$(MAKE) --no-print-directory all $(UNIT_BIN)
	$(Q)if $(MAKE) --no-print-directory asan-units >/dev/null 2>$(BUILD)/asan-build.log; then \
		echo "sanitizer unit tests built"; else echo "sanitizer build failed: see $(BUILD)/asan-build.log"; \
		cat $(BUILD)/asan-build.log; exit 1; fi
	$(Q)sh tests/run.sh $(BUILD)

asan-units: $(ASAN_BIN)

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/demo.sh $(BUILD)

# Installs missing Debian packages when run as root; only reports them otherwise.
deps:
	$(Q)sh tests/deps.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BUILD)/netbench $(DESTDIR)$(BINDIR)/netbench
	install -m 0644 $(BUILD)/netbench.1 $(DESTDIR)$(MANDIR)/man1/netbench.1

format:
	clang-format -i $(CORE_SRC) $(FRONT_SRC) $(wildcard src/*/*.h src/core/*/*.h) $(UNIT_SRC)

clean:
	rm -rf $(BUILD)

# The peer-facing parsers under libFuzzer for longer than make check does (FUZZ_TIME s each).
FUZZ_TIME ?= 120
fuzz:
	$(Q)FUZZ_RUNS=-1 FUZZ_TIME=$(FUZZ_TIME) TOP=. sh tests/integration/fuzz_peer.sh
	$(Q)TOP=. sh tests/integration/fuzz.sh

.PHONY: all check unit asan-units demo deps install format clean fuzz

-include $(CORE_OBJ:.o=.d) $(FRONT_OBJ:.o=.d) $(ASAN_OBJ:.o=.d)
