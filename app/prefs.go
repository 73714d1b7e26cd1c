package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// preferencesPath is where Fyne keeps the app's preferences on the desktop:
// <user config dir>/fyne/<app id>/preferences.json.
func preferencesPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "fyne", appID, "preferences.json"), nil
}

// dropEmptyPreferences removes a preferences file that holds nothing (a
// save cut short leaves it empty): Fyne reads a missing file as no
// preferences, but an empty one as a JSON error ("Preferences load error:
// EOF") on every start until something is saved. A missing file and a file
// with content are left alone.
func dropEmptyPreferences(path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) > 0 {
		return nil
	}
	return os.Remove(path)
}
