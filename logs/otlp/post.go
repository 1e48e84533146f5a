package otlp

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// The request is one HTTP/1.1 POST on a connection of its own, written
// here over net and crypto/tls: net/http would add 2.4 MB to the binary
// and half a millisecond to the start of every hook, telemetry on or off,
// for one request a run. Proxies (HTTPS_PROXY) are not used: the export
// connects to the collector directly.

// maxResponse bounds what is read of a collector's answer.
const maxResponse = 64 << 10

// Refused is a collector's answer other than success.
type Refused struct {
	Status int
	Reason string // the start of the answer's body, cleaned
}

func (e *Refused) Error() string {
	msg := fmt.Sprintf("the collector answered %d", e.Status)
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Retryable says whether sending the same batch later may succeed: OTLP
// has the client retry 429, 502, 503 and 504; so does an answer that says
// who we are or where we send is wrong (401, 403, 404), which a person
// can fix, and the batch must not be lost meanwhile. Any other refusal
// (a body the collector cannot read) is final: the batch is dropped.
func (e *Refused) Retryable() bool {
	switch e.Status {
	case 400, 413, 415, 422:
		return false
	}
	return true
}

// conn is one connection to the collector, for one request.
type conn struct {
	net.Conn
	u *url.URL
	c Config
}

// connect opens a connection to the collector, within ctx. It comes
// before the batch is read: a collector that refuses costs no read of
// the backlog.
func connect(ctx context.Context, c Config) (*conn, error) {
	u, err := url.Parse(c.Endpoint)
	if err != nil {
		return nil, err
	}
	nc, err := dial(ctx, c, u)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: nc, u: u, c: c}, nil
}

// post sends body on the connection and reads the collector's status,
// within ctx, then closes the connection.
func (cn *conn) post(ctx context.Context, body []byte, userAgent string) error {
	defer cn.Close()
	if d, ok := ctx.Deadline(); ok {
		cn.SetDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { cn.Close() })
	defer stop()
	req, err := request(cn.c, cn.u, body, userAgent)
	if err != nil {
		return err
	}
	if _, err := cn.Write(req); err != nil {
		return fmt.Errorf("cannot send to %s: %w", cn.u.Host, err)
	}
	return readStatus(bufio.NewReader(io.LimitReader(cn.Conn, maxResponse)))
}

// dial connects to the endpoint's host, through TLS for https.
func dial(ctx context.Context, c Config, u *url.URL) (net.Conn, error) {
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the collector at %s: %w", host, unwrapOp(err))
	}
	if u.Scheme != "https" {
		return conn, nil
	}
	cfg, err := tlsConfig(c, u.Hostname())
	if err != nil {
		conn.Close()
		return nil, err
	}
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("TLS with the collector at %s failed: %w", host, err)
	}
	return tc, nil
}

// tlsConfig trusts the system's roots, or the CA file named, and presents
// the client certificate named.
func tlsConfig(c Config, server string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: server, MinVersion: tls.VersionTLS12}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, fmt.Errorf("cannot read the collector's CA (OTEL_EXPORTER_OTLP_CERTIFICATE): %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s holds no PEM certificate", c.CAFile)
		}
	}
	if c.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("cannot load the client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// request is the POST, head and body.
func request(c Config, u *url.URL, body []byte, userAgent string) ([]byte, error) {
	typ := "application/x-protobuf"
	if c.JSON {
		typ = "application/json"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\nContent-Type: %s\r\nConnection: close\r\n", u.RequestURI(), u.Host, userAgent, typ)
	if c.Gzip {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(body)
		if err := w.Close(); err != nil {
			return nil, err
		}
		body = z.Bytes()
		b.WriteString("Content-Encoding: gzip\r\n")
	}
	for _, h := range c.Headers {
		switch textproto.CanonicalMIMEHeaderKey(h[0]) {
		case "Host", "Content-Length", "Content-Type", "Content-Encoding", "Connection", "Transfer-Encoding":
			continue // ours: the request must stay one request
		}
		fmt.Fprintf(&b, "%s: %s\r\n", h[0], h[1])
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	return b.Bytes(), nil
}

// readStatus reads the answer's status line (after any interim 1xx) and,
// for a refusal, the start of its body.
func readStatus(r *bufio.Reader) error {
	tp := textproto.NewReader(r)
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return fmt.Errorf("the collector did not answer: %w", unwrapOp(err))
		}
		proto, rest, _ := strings.Cut(line, " ")
		code, _, _ := strings.Cut(rest, " ")
		status, err := strconv.Atoi(code)
		if !strings.HasPrefix(proto, "HTTP/1.") || err != nil || status < 100 || status > 599 {
			return fmt.Errorf("the collector's answer is not HTTP/1.1 (an OTLP/gRPC port?)")
		}
		head, err := tp.ReadMIMEHeader()
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("the collector's answer was cut: %w", unwrapOp(err))
		}
		if status < 200 {
			continue
		}
		if status < 300 {
			return nil
		}
		return &Refused{Status: status, Reason: reason(r, head)}
	}
}

// reason is the start of a refusal's body, as far as it is plain text:
// a collector answers with a google.rpc.Status (protobuf or JSON) whose
// message is readable among its bytes.
func reason(r *bufio.Reader, head textproto.MIMEHeader) string {
	if head.Get("Transfer-Encoding") != "" {
		return "" // chunked: not worth a decoder for a message
	}
	b, _ := io.ReadAll(io.LimitReader(r, 512))
	var out strings.Builder
	for _, c := range string(b) {
		switch {
		case c >= ' ' && c < 0x7f:
			out.WriteRune(c)
		case out.Len() > 0 && !strings.HasSuffix(out.String(), " "):
			out.WriteByte(' ')
		}
	}
	return strings.TrimSpace(out.String())
}

// unwrapOp drops net.OpError's address prefix, already said.
func unwrapOp(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}
