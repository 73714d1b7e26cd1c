# c6book: `make run` sets up and starts the workbench, `make test` sets up
# and runs every check. Both install missing Debian packages first.

GO       ?= go
BIN      := bin
APT_PKGS := libgl1-mesa-dev xorg-dev xvfb xauth
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export CGO_ENABLED := 1

.PHONY: all deps build run test vet smoke bench bench-solve bench-verify bench-book clean

all: build

# Install the system packages Fyne needs (OpenGL, X11 headers, Xvfb for the
# headless smoke test) when any is missing: apt-get update once, then install.
deps:
	@missing=""; for p in $(APT_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing system packages:$$missing"; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; \
	fi
	@$(GO) mod download

build: deps
	$(GO) build -o $(BIN)/c6book ./app
	$(GO) build -o $(BIN)/c6 ./cmd/c6

run: build
	./$(BIN)/c6book

vet: deps
	$(GO) vet ./...

test: deps vet
	$(GO) test -race -timeout 40m ./...

clean:
	rm -rf $(BIN)
