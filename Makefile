# The two commands that matter: `make run` and `make test`. See README.md.
SHELL := /bin/bash
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
GO_LDFLAGS := -s -w -X main.version=$(VERSION)
WEB_SRC := $(shell find web/src web/public web/index.html web/vite.config.ts web/scripts web/tsconfig*.json -type f 2>/dev/null)
GO_SRC := $(shell find cmd internal content -type f \( -name '*.go' -o -name '*.sql' -o -name '*.json' -o -name '*.pgo' \) -not -path 'internal/webapp/dist/*' 2>/dev/null)

# The web app's API types are generated from the Go packages tygo.yaml lists (see `make types`).
API_TYPES_SRC := tygo.yaml $(shell sed -n 's|^  - path: tribe/||p' tygo.yaml | xargs -I{} find {} -maxdepth 1 -name '*.go' ! -name '*_test.go' 2>/dev/null)

.PHONY: run build test test-build lint dev web types clean check-tools

# `make run` and `make dev` listen on 127.0.0.1:8080 unless TRIBE_ADDR is set (in the environment or
# .env): the development mailbox is only served by a server bound to a loopback address.
LOCAL_ADDR = $(if $(TRIBE_ADDR),,$(if $(shell grep -sqE '^[[:space:]]*(export[[:space:]]+)?TRIBE_ADDR=' .env && echo set),,TRIBE_ADDR=127.0.0.1:8080))

run: build ## build everything and serve http://localhost:8080 on SQLite in ./data
	$(LOCAL_ADDR) ./bin/tribe serve

build: web/node_modules/.api-types bin/tribe ## bin/tribe with the web app embedded

bin/tribe: internal/webapp/dist/index.html $(GO_SRC) go.mod go.sum
	@scripts/check-tools.sh go
	CGO_ENABLED=0 go build -trimpath -ldflags '$(GO_LDFLAGS)' -o $@ ./cmd/tribe

# The binary the tests run: the same program without the profile-guided optimisation, -trimpath or
# stripped symbols, so it compiles from the packages `go test` already built (a profile-guided build
# recompiles every package for the profile: minutes on two cores, for no test's benefit).
bin/tribe-test: internal/webapp/dist/index.html $(GO_SRC) go.mod go.sum
	@scripts/check-tools.sh go
	CGO_ENABLED=0 go build -pgo=off -ldflags '-X main.version=$(VERSION)' -o $@ ./cmd/tribe

# The fake OpenAI-compatible provider the browser suite starts for its AI specs.
bin/fakeai: $(shell find internal/agent/aitest -name '*.go' 2>/dev/null) go.mod go.sum
	CGO_ENABLED=0 go build -o $@ ./internal/agent/aitest/cmd/fakeai

web: web/node_modules/.api-types internal/webapp/dist/index.html

types: web/node_modules/.installed ## regenerate the web app's API types from the Go types (tygo.yaml)
	scripts/api-types.sh

# `make build` and `make web` regenerate them first when a Go file they come from changed (listed
# first, so the web build then sees what changed); the script rewrites only files whose content
# changes, so the web app is not rebuilt for nothing. CI only checks them: stale files fail there.
web/node_modules/.api-types: $(API_TYPES_SRC) web/node_modules/.installed
	scripts/api-types.sh $(if $(CI),check)
	touch $@

# The Go binary embeds internal/webapp/dist; the web build writes web/dist and
# is copied there (keeping .gitkeep, which lets Go build before the web app).
internal/webapp/dist/index.html: web/node_modules/.installed $(WEB_SRC) web/package.json
	cd web && npm run build
	find internal/webapp/dist -mindepth 1 ! -name .gitkeep -delete
	cp -R web/dist/. internal/webapp/dist/

web/node_modules/.installed: web/package-lock.json
	@scripts/check-tools.sh node
	cd web && npm ci --no-audit --no-fund
	touch $@

test: web/node_modules/.installed ## every suite: lint, Go (SQLite + PostgreSQL), web units, browser end-to-end
	scripts/ensure-chromium.sh
	scripts/ensure-nginx.sh || echo "nginx is missing: the two-instance test will skip (CI=true fails it)"
	scripts/run-tests.sh

test-build: web/node_modules/.api-types bin/tribe-test bin/fakeai ## what the test suites run: the web app, bin/tribe-test, bin/fakeai

lint: web/node_modules/.installed
	scripts/run-tests.sh lint

dev: web/node_modules/.installed ## Go server on :8080 plus the Vite dev server with hot reload on :5173
	@trap 'kill 0' EXIT INT TERM; \
	$(LOCAL_ADDR) go run ./cmd/tribe serve & \
	cd web && npm run dev -- --host 127.0.0.1

clean:
	rm -rf bin web/dist web/node_modules
	find internal/webapp/dist -mindepth 1 ! -name .gitkeep -delete
