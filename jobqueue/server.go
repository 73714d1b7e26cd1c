package jobqueue

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ServerConfig configures an embedded NATS server.
type ServerConfig struct {
	// Dir is the folder of JetStream's file storage (created if missing):
	// jobs and results survive a restart. QueueDir gives the one beside a
	// book.
	Dir string
	// Listen is the host:port the server listens on (port 0: one of its
	// own choosing). "" listens on no network at all: only this process
	// reaches the server, through in-process connections. A listening
	// server needs CredsFile, loopback addresses too (every local user
	// can reach those), unless OpenLoopback allows a loopback one.
	Listen string
	// CredsFile (may be "") holds the user nkey seed clients must prove
	// they hold (NewCredsFile writes one): with it, every connection,
	// local ones too, must authenticate.
	CredsFile string
	// OpenLoopback lets a server on a loopback Listen address run
	// without CredsFile, open to every local user: for tests, never for
	// a queue whose results a book stores.
	OpenLoopback bool
}

// maxPayload is the largest message a server takes.
const maxPayload = 8 << 20

// QueueDir is the storage folder of the verifier queue of the book at
// bookPath: beside it, named after it.
func QueueDir(bookPath string) string {
	return filepath.Join(filepath.Dir(bookPath), filepath.Base(bookPath)+".jobs")
}

// Server is an embedded NATS server with JetStream.
type Server struct {
	ns    *server.Server
	creds string
	lock  *os.File
}

// InUseError is returned by StartServer for a storage folder another
// process serves (two servers on one folder would corrupt it): connect to
// URL instead.
type InUseError struct {
	Dir, URL string
}

func (e *InUseError) Error() string {
	if e.URL == "" {
		return fmt.Sprintf("jobqueue: the queue in %s is served by another process, on no network address", e.Dir)
	}
	return fmt.Sprintf("jobqueue: the queue in %s is served by another process (at %s)", e.Dir, e.URL)
}

var errLocked = errors.New("locked")

// ErrOpenNetwork is returned for a server on a network address (loopback
// too, unless ServerConfig.OpenLoopback) without credentials.
var ErrOpenNetwork = errors.New("jobqueue: a server on a network address needs credentials (--creds FILE)")

// CheckListen checks a listen address as StartServer does, without
// starting anything: a host:port with a port in 0..65535 and, without
// credentials, refused (ErrOpenNetwork) unless openLoopback allows a
// loopback host. It returns the host and the port (-1: a free one).
func CheckListen(listen string, hasCreds, openLoopback bool) (host string, port int, err error) {
	h, p, err := net.SplitHostPort(listen)
	if err != nil {
		return "", 0, fmt.Errorf("listen address %q: %w", listen, err)
	}
	if port, err = strconv.Atoi(p); err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("listen address %q: bad port", listen)
	}
	if port == 0 {
		port = -1 // a free port
	}
	if !hasCreds && !(openLoopback && isLoopback(h)) {
		return "", 0, fmt.Errorf("%w: %s", ErrOpenNetwork, listen)
	}
	return h, port, nil
}

// StartServer starts an embedded server and waits until it accepts
// connections. Bad settings are refused before anything is created.
func StartServer(cfg ServerConfig) (*Server, error) {
	if cfg.Dir == "" {
		return nil, errors.New("jobqueue: the server needs a storage folder")
	}
	host, port := "", 0
	if cfg.Listen != "" {
		var err error
		if host, port, err = CheckListen(cfg.Listen, cfg.CredsFile != "", cfg.OpenLoopback); err != nil {
			return nil, err
		}
	}
	if cfg.CredsFile != "" {
		if _, err := credsPublicKey(cfg.CredsFile); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, err
	}
	lockPath := filepath.Join(cfg.Dir, "LOCK")
	lock, err := lockDir(lockPath)
	if errors.Is(err, errLocked) {
		url, _ := os.ReadFile(lockPath)
		return nil, &InUseError{Dir: cfg.Dir, URL: strings.TrimSpace(string(url))}
	}
	if err != nil {
		return nil, fmt.Errorf("jobqueue: lock %s: %w", lockPath, err)
	}
	srv, err := startLocked(cfg, host, port)
	if err != nil {
		lock.Close()
		return nil, err
	}
	srv.lock = lock
	// The lock file names the server's address, for a second process to
	// connect; a server on no network leaves it empty.
	url := srv.url()
	if a, ok := srv.addr().(*net.TCPAddr); ok && a.IP.IsUnspecified() {
		url = fmt.Sprintf("nats://127.0.0.1:%d", a.Port)
	}
	if err := lock.Truncate(0); err == nil && url != "" {
		_, _ = lock.WriteAt([]byte(url+"\n"), 0)
	}
	return srv, nil
}

func startLocked(cfg ServerConfig, host string, port int) (*Server, error) {
	opts := &server.Options{
		ServerName: "c6book",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   cfg.Dir,
		MaxPayload: maxPayload,
		NoSigs:     true,
		NoLog:      true,
		// No listen address: no socket at all, in-process connections
		// only (connectInProcess).
		DontListen: cfg.Listen == "",
	}
	if cfg.CredsFile != "" {
		pub, err := credsPublicKey(cfg.CredsFile)
		if err != nil {
			return nil, err
		}
		opts.Nkeys = []*server.NkeyUser{{Nkey: pub}}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		ns.WaitForShutdown()
		if cfg.Listen == "" {
			return nil, errors.New("nats server did not start")
		}
		return nil, fmt.Errorf("nats server on %s did not start (port in use?)", cfg.Listen)
	}
	return &Server{ns: ns, creds: cfg.CredsFile}, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// url is the server's client URL (nats://host:port), "" for a server on
// no network.
func (s *Server) url() string {
	if s.addr() == nil {
		return ""
	}
	return s.ns.ClientURL()
}

// addr is the address the server listens on, nil for a server on no
// network.
func (s *Server) addr() net.Addr {
	if a := s.ns.Addr(); a != nil {
		return a
	}
	return nil
}

// connectInProcess connects to the server without a socket (with the
// server's credentials when it has some).
func (s *Server) connectInProcess(name string) (*nats.Conn, error) {
	opts, err := connOptions(s.creds, name)
	if err != nil {
		return nil, err
	}
	opts = append(opts, nats.InProcessServer(s.ns))
	return nats.Connect("", opts...)
}

// Shutdown stops the server and waits until it has stopped.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	if s.lock != nil {
		_ = s.lock.Truncate(0)
		s.lock.Close()
		s.lock = nil
	}
}
