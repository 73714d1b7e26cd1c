// Package assets embeds c6book's icons and images.
package assets
