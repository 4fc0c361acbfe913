# Two commands on a fresh machine: `make demo` and `make test`. Both install what is missing (idempotent).
SHELL := /bin/bash
UV := $(shell command -v uv 2>/dev/null || echo $(HOME)/.local/bin/uv)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export DO_NOT_TRACK := 1

.PHONY: setup chromium uv sync demo test lint bench clean

setup: chromium sync

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing Debian chromium (apt-get)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; \
	fi

uv:
	@if ! command -v uv >/dev/null 2>&1 && [ ! -x "$(HOME)/.local/bin/uv" ]; then \
		echo "installing uv (pip)"; \
		python3 -m pip install -q --user uv || python3 -m pip install -q --break-system-packages --user uv; \
	fi

sync: uv
	@$(UV) sync --frozen --all-groups --all-extras -q

demo: setup
	@$(UV) run --frozen autodata demo

test: setup
	@bash scripts/run_tests.sh

lint: sync
	@$(UV) run --frozen ruff check prefect_autodata tests benchmarks scripts
	@$(UV) run --frozen ruff format --check prefect_autodata tests benchmarks scripts
	@$(UV) run --frozen lint-imports

bench: setup
	@for b in benchmarks/*.py; do echo "== $$b"; $(UV) run --frozen python $$b || exit 1; done

clean:
	rm -rf .venv workspace .pytest_cache test-artifacts
