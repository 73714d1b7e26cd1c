package jobqueue

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Credentials. A creds file holds a NATS user nkey seed ("SU…", alone or
// decorated as nsc writes it): the server started with --creds FILE admits
// only that key's holder, the worker started with --creds FILE signs the
// server's challenge with it (the seed never crosses the network). A creds
// file that also holds a user JWT (nsc, operator mode) is passed to the
// client as it is, for an external server or cluster managed with nsc.

// NewCredsFile writes a new user nkey seed to path (mode 0600); it refuses
// to overwrite an existing file.
func NewCredsFile(path string) error {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return err
	}
	seed, err := kp.Seed()
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	text := "# c6book verifier queue credentials: a NATS user nkey seed. Keep it secret;\n" +
		"# give it to the workers that may join (c6 worker --creds FILE).\n" + string(seed) + "\n"
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readCreds reads a creds file: the user key pair, and whether the file
// holds a JWT too.
func readCreds(path string) (nkeys.KeyPair, bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("credentials: %w", err)
	}
	kp, err := nkeys.ParseDecoratedUserNKey(data)
	if err != nil {
		return nil, false, fmt.Errorf("credentials %s: no NATS user nkey seed in it: %v", path, err)
	}
	return kp, bytes.Contains(data, []byte("BEGIN NATS USER JWT")), nil
}

// credsPublicKey is the public key of the user in a creds file.
func credsPublicKey(path string) (string, error) {
	kp, _, err := readCreds(path)
	if err != nil {
		return "", err
	}
	return kp.PublicKey()
}

// credsOption is the client option that authenticates with a creds file.
func credsOption(path string) (nats.Option, error) {
	kp, jwt, err := readCreds(path)
	if err != nil {
		return nil, err
	}
	if jwt {
		return nats.UserCredentials(path), nil
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, err
	}
	return nats.Nkey(pub, kp.Sign), nil
}

// Connect connects to the NATS server at url (credsFile may be ""), and
// keeps reconnecting for ever when the server goes away (pending jobs and
// results survive a restart of a server with file storage).
func Connect(url, credsFile, name string) (*nats.Conn, error) {
	opts, err := connOptions(credsFile, name)
	if err != nil {
		return nil, err
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", url, err)
	}
	return nc, nil
}

func connOptions(credsFile, name string) ([]nats.Option, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectBufSize(-1)}
	if credsFile != "" {
		o, err := credsOption(credsFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// ConnectWorker is Connect for a worker that must outlast a server that
// is starting, restarting or too busy to answer at once: a failed
// connection is tried again (pausing up to 5 s, each failure told to logf)
// until it succeeds or ctx is done. Refused credentials end it at once.
func ConnectWorker(ctx context.Context, url, credsFile, name string, logf func(string, ...any)) (*nats.Conn, error) {
	pause := 250 * time.Millisecond
	for {
		nc, err := Connect(url, credsFile, name)
		if err == nil || isAuthError(err) {
			return nc, err
		}
		logf("worker %s: %v; trying again in %s", name, err, pause)
		sleepCtx(ctx, pause)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w (gave up connecting: %v)", ctx.Err(), err)
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// errAuth is wrapped by Connect's error when the server refuses the
// credentials (or their absence).
var errAuth = nats.ErrAuthorization

// isAuthError reports whether err is a refused authentication.
func isAuthError(err error) bool {
	return errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) || errors.Is(err, nats.ErrAuthRevoked)
}
