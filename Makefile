# wakesim - see README.md. `make` builds ./wakesim; `make check` runs the
# cmocka tests, then the same tests under AddressSanitizer and UBSan.

CC ?= cc
PKGS := json-c gsl hwloc libtracecmd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-format-truncation
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -Isrc -Isrc/machine -Iinclude -Ibuild $(PKG_CFLAGS)
# The commit a result file names (src/cli/commands.h).
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
LDLIBS += $(PKG_LIBS) -lm -lpthread
# Policies (include/wakesim/policy.h) are shared objects that call wakesim's
# wsk_* helpers and cpumask functions: export them from the executables.
LDLIBS += -rdynamic

SRC := $(filter-out src/cli/main.c,$(wildcard src/*/*.c)) build/presets_data.c
TEST_SRC := $(wildcard tests/test_*.c)
TESTS := $(patsubst tests/%.c,build/tests/%,$(TEST_SRC))
SAN_TESTS := $(patsubst tests/%.c,build/san/tests/%,$(TEST_SRC))
# The sanitized build also checks the kernel model's invariants after every event.
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DWS_DEBUG

# Per-test libraries: test_trace reads traces back with libtraceevent.
EXTRA_test_trace := $(shell pkg-config --cflags --libs libtraceevent 2>/dev/null)

OBJ := $(patsubst %.c,build/obj/%.o,$(SRC))
SAN_OBJ := $(patsubst %.c,build/san/obj/%.o,$(SRC))

.PHONY: all check test san-test clean FORCE fuzz policies
all: wakesim

wakesim: build/obj/src/cli/main.o $(OBJ)
	@echo "  LD $@"; $(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/presets_data.c: tools/embed.sh $(wildcard machines/*.json costs/*.json)
	@mkdir -p build
	sh tools/embed.sh $(wildcard machines/*.json costs/*.json) > $@.tmp && mv $@.tmp $@

build/obj/%.o: %.c | build/presets_data.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"; $(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# Only the commands that write result files need the commit; rebuild them when it moves.
COMMIT_OBJ := $(foreach c,cmd_run cmd_compare cmd_rerun cmd_sweep sweep_run sweep_report,build/obj/src/cli/$(c).o build/san/obj/src/cli/$(c).o)
$(COMMIT_OBJ): CFLAGS += -DWAKESIM_COMMIT='"$(COMMIT)"'
$(COMMIT_OBJ): build/commit
build/commit: FORCE
	@mkdir -p build; echo "$(COMMIT)" | cmp -s - $@ || echo "$(COMMIT)" > $@
FORCE:

build/san/obj/%.o: %.c | build/presets_data.c
	@mkdir -p $(dir $@)
	@echo "  CC-SAN $<"; $(CC) $(CFLAGS) $(SANFLAGS) -MMD -MP -c -o $@ $<

build/tests/%: tests/%.c tests/testutil.h $(OBJ) wakesim
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(CFLAGS) -Itests -o $@ $< $(OBJ) $(LDLIBS) -lcmocka $(EXTRA_$*)

build/san/tests/%: tests/%.c tests/testutil.h $(SAN_OBJ) wakesim
	@mkdir -p $(dir $@)
	@echo "  LD-SAN $@"; $(CC) $(CFLAGS) $(SANFLAGS) -Itests -o $@ $< $(SAN_OBJ) $(LDLIBS) -lcmocka $(EXTRA_$*)

# Policies as shared objects (include/wakesim/policy.h): the examples, and
# the tests' own (a wrong API version, a missing symbol).
POLICY_HDRS := $(wildcard include/wakesim/*.h)
POLICIES := $(patsubst examples/policies/%.c,build/policies/%.so,$(wildcard examples/policies/*.c))
TEST_POLICIES := $(patsubst tests/policies/%.c,build/test-policies/%.so,$(wildcard tests/policies/*.c))
POLICY_CFLAGS := -std=c11 -O2 -fPIC -shared $(WARN) -Iinclude

build/policies/%.so: examples/policies/%.c $(POLICY_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC-POLICY $@"; $(CC) $(POLICY_CFLAGS) -o $@ $<

build/test-policies/%.so: tests/policies/%.c $(POLICY_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC-POLICY $@"; $(CC) $(POLICY_CFLAGS) -o $@ $<

policies: $(POLICIES)

# Programs that pass, fail and crash, for the test of tools/run-tests.sh
# (tests/test_runner.c): the runner must count what they report.
RUNNER_FIXTURES := $(patsubst tests/runner/%.c,build/runner/%,$(wildcard tests/runner/*.c))
build/runner/%: tests/runner/%.c
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(CFLAGS) -o $@ $< -lcmocka

# Every program runs even when one fails; tools/run-tests.sh sums cmocka's
# totals into one line and names the failing programs.
RUN_TESTS = WAKESIM=./wakesim tools/run-tests.sh -l "make test" -s build/summary.test $(TESTS)
RUN_SAN_TESTS = ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan.supp \
	WAKESIM=build/san/wakesim tools/run-tests.sh -l "make san-test (asan+ubsan)" \
	-s build/summary.san-test $(SAN_TESTS)
TEST_DEPS := $(TESTS) $(POLICIES) $(TEST_POLICIES) $(RUNNER_FIXTURES)
SAN_TEST_DEPS := $(SAN_TESTS) build/san/wakesim $(POLICIES) $(TEST_POLICIES) $(RUNNER_FIXTURES)

test: $(TEST_DEPS)
	@$(RUN_TESTS)

build/san/wakesim: build/san/obj/src/cli/main.o $(SAN_OBJ)
	@echo "  LD-SAN $@"; $(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

san-test: $(SAN_TEST_DEPS)
	@$(RUN_SAN_TESTS)

# Both passes run whatever the first one found; their two lines end the output.
check: $(TEST_DEPS) $(SAN_TEST_DEPS)
	@st=0; $(RUN_TESTS) || st=1; $(RUN_SAN_TESTS) || st=1; \
	echo; echo "== make check"; cat build/summary.test build/summary.san-test; exit $$st

clean:
	rm -rf build wakesim

-include $(shell find build -name '*.d' 2>/dev/null)

# Fuzzing (libFuzzer, clang): every input parser, FUZZ_SECONDS each run.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
FUZZ_OBJ := $(patsubst %.c,build/fuzz/obj/%.o,$(SRC))

build/fuzz/obj/%.o: %.c | build/presets_data.c
	@mkdir -p $(dir $@)
	@echo "  CC-FUZZ $<"; $(FUZZ_CC) $(filter-out -Werror,$(CFLAGS)) -Wno-unknown-warning-option $(FUZZFLAGS) -c -o $@ $<

build/fuzz/fuzz_inputs: fuzz/fuzz_inputs.c $(FUZZ_OBJ)
	@echo "  LD-FUZZ $@"; $(FUZZ_CC) $(filter-out -Werror,$(CFLAGS)) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# libtracecmd, in its child process, mallocs whatever sizes a corrupt
# trace.dat's headers claim: the child fails (allocator_may_return_null) and
# wakesim reports the file; libFuzzer's malloc limit would call that an OOM.
fuzz: build/fuzz/fuzz_inputs
	@sh fuzz/seed-corpus.sh build/fuzz/corpus
	LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan.supp ASAN_OPTIONS=allocator_may_return_null=1 \
	build/fuzz/fuzz_inputs -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1000000 \
		-artifact_prefix=build/fuzz/ build/fuzz/corpus
