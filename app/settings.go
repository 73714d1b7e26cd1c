package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"c6book/engine/threat"
	"c6book/service"
)

// The Preferences (Edit → Preferences…): kept in Fyne's preferences and
// applied without a restart. The verifier queue's URL and credentials keep
// their keys (queue.go).
const (
	prefTheme       = "theme"       // themeChoice
	prefLambda      = "lambda"      // the λ the workbench starts with (2 or 3)
	prefAutoJobs    = "autoJobs"    // the auto-pilot's verifier jobs at once
	prefSolverNodes = "solverNodes" // nodes per solver call of the verifier
	prefSolverTime  = "solverTime"  // time per solver call ("" or "0s": none)
	prefPlayTime    = "playTime"    // the engine player's time for a move
	// The board panel's Replies filter (ui.ReplyFilter's String), kept
	// when the user changes it there.
	prefReplyFilter = "replyFilter"
)

// Bounds of the settings.
const (
	maxAutoJobs   = 256
	minNodes      = 1_000
	maxNodes      = 1_000_000_000
	maxSolverTime = 24 * time.Hour
	maxPlayTime   = time.Hour
)

// settings are the Preferences' values.
type settings struct {
	theme       themeChoice
	lambda      int
	autoJobs    int
	solverNodes int64         // per solver call
	solverTime  time.Duration // per solver call, 0: none
	playTime    time.Duration
	queue       queueSetting
}

// defaultSettings are the values before any is saved.
func defaultSettings() settings {
	v := service.DefaultVerify() // the same as c6 verify's
	return settings{theme: themeSystem, lambda: v.Lambda, autoJobs: 2, solverNodes: v.MaxNodes, playTime: time.Second}
}

// loadSettings reads the saved settings; a missing or bad value (an older
// or hand-edited file) is the default.
func loadSettings(p fyne.Preferences) settings {
	s := defaultSettings()
	if c, err := parseThemeChoice(p.String(prefTheme)); err == nil {
		s.theme = c
	}
	if l := p.Int(prefLambda); l == 2 || l == 3 {
		s.lambda = l
	}
	if j := p.Int(prefAutoJobs); j >= 1 && j <= maxAutoJobs {
		s.autoJobs = j
	}
	if n, err := parseNodes(p.String(prefSolverNodes)); err == nil {
		s.solverNodes = n
	}
	if d, err := parseBudget("solver time", p.String(prefSolverTime), true, maxSolverTime); err == nil {
		s.solverTime = d
	}
	if d, err := parseBudget("player time", p.String(prefPlayTime), false, maxPlayTime); err == nil {
		s.playTime = d
	}
	s.queue = loadQueueSetting(p)
	return s
}

// settingSet is a set of settings (changedSettings).
type settingSet int

const (
	setTheme settingSet = 1 << iota
	setLambda
	setAutoJobs
	setSolver // nodes and time per solver call
	setPlayTime
	setQueue
	allSettings = setTheme | setLambda | setAutoJobs | setSolver | setPlayTime | setQueue
)

// changedSettings are the settings that differ between a and b.
func changedSettings(a, b settings) settingSet {
	var ch settingSet
	if a.theme != b.theme {
		ch |= setTheme
	}
	if a.lambda != b.lambda {
		ch |= setLambda
	}
	if a.autoJobs != b.autoJobs {
		ch |= setAutoJobs
	}
	if a.solverNodes != b.solverNodes || a.solverTime != b.solverTime {
		ch |= setSolver
	}
	if a.playTime != b.playTime {
		ch |= setPlayTime
	}
	if a.queue != b.queue {
		ch |= setQueue
	}
	return ch
}

// saveChanged writes the settings in ch but the queue's (setQueueSetting
// keeps it).
func (s settings) saveChanged(p fyne.Preferences, ch settingSet) {
	if ch&setTheme != 0 {
		p.SetString(prefTheme, string(s.theme))
	}
	if ch&setLambda != 0 {
		p.SetInt(prefLambda, s.lambda)
	}
	if ch&setAutoJobs != 0 {
		p.SetInt(prefAutoJobs, s.autoJobs)
	}
	if ch&setSolver != 0 {
		p.SetString(prefSolverNodes, strconv.FormatInt(s.solverNodes, 10))
		p.SetString(prefSolverTime, s.solverTime.String())
	}
	if ch&setPlayTime != 0 {
		p.SetString(prefPlayTime, s.playTime.String())
	}
}

// settingsForm is the Preferences' fields as typed.
type settingsForm struct {
	theme, lambda, autoJobs, solverNodes, solverTime, playTime, queueURL, queueCreds string
}

// parse checks every field: the first bad one is a one-line error.
func (f settingsForm) parse() (settings, error) {
	var s settings
	var err error
	if s.theme, err = parseThemeChoice(strings.ToLower(strings.TrimSpace(f.theme))); err != nil {
		return s, err
	}
	switch strings.TrimPrefix(strings.TrimSpace(f.lambda), "λ") {
	case "2":
		s.lambda = 2
	case "3":
		s.lambda = 3
	default:
		return s, fmt.Errorf("default λ %q: want 2 or 3", f.lambda)
	}
	t := strings.TrimSpace(f.autoJobs)
	if s.autoJobs, err = strconv.Atoi(t); err != nil || s.autoJobs < 1 || s.autoJobs > maxAutoJobs {
		return s, fmt.Errorf("verifier jobs %q: want a number from 1 to %d", t, maxAutoJobs)
	}
	if s.solverNodes, err = parseNodes(f.solverNodes); err != nil {
		return s, err
	}
	if s.solverTime, err = parseBudget("solver time", f.solverTime, true, maxSolverTime); err != nil {
		return s, err
	}
	if s.playTime, err = parseBudget("player time", f.playTime, false, maxPlayTime); err != nil {
		return s, err
	}
	s.queue = queueSetting{url: strings.TrimSpace(f.queueURL), creds: strings.TrimSpace(f.queueCreds)}
	if s.queue.url != "" && !strings.Contains(s.queue.url, "://") {
		return s, fmt.Errorf("verifier queue %q: want a NATS URL such as nats://host:4222, or nothing for the queue beside the book", s.queue.url)
	}
	if s.queue.url == "" && s.queue.creds != "" {
		return s, errors.New("verifier queue: a credentials file without a NATS server URL")
	}
	return s, nil
}

// form is s as the Preferences show it.
func (s settings) form() settingsForm {
	t := ""
	if s.solverTime > 0 {
		t = s.solverTime.String()
	}
	return settingsForm{theme: s.theme.label(), lambda: fmt.Sprintf("λ%d", s.lambda), autoJobs: strconv.Itoa(s.autoJobs),
		solverNodes: strconv.FormatInt(s.solverNodes, 10), solverTime: t, playTime: s.playTime.String(),
		queueURL: s.queue.url, queueCreds: s.queue.creds}
}

// parseNodes reads a node budget ("1000000", "1_000_000" or "1,000,000").
func parseNodes(text string) (int64, error) {
	t := strings.NewReplacer(",", "", "_", "", " ", "").Replace(strings.TrimSpace(text))
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < minNodes || n > maxNodes {
		return 0, fmt.Errorf("solver nodes %q: want a number from %d to %d", strings.TrimSpace(text), minNodes, maxNodes)
	}
	return n, nil
}

// parseBudget reads a duration ("90s", "10m"); with none, empty or zero
// is no limit.
func parseBudget(what, text string, none bool, most time.Duration) (time.Duration, error) {
	t := strings.TrimSpace(text)
	if none && (t == "" || t == "0" || t == "0s") {
		return 0, nil
	}
	d, err := time.ParseDuration(t)
	if err != nil || d <= 0 || d > most {
		want := fmt.Sprintf("a duration such as 500ms, 10s or 2m, at most %v", most)
		if none {
			want += ", or nothing for no limit"
		}
		return 0, fmt.Errorf("%s %q: want %s", what, t, want)
	}
	return d, nil
}

// solverBudget is the verifier's limits per solver call, read by every
// verifier job as it starts (the Preferences change it). Safe for
// concurrent use.
type solverBudget struct {
	mu     sync.Mutex
	limits threat.Limits
}

func (b *solverBudget) set(l threat.Limits) {
	b.mu.Lock()
	b.limits = l
	b.mu.Unlock()
}

func (b *solverBudget) get() threat.Limits {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limits
}
