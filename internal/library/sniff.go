package library

import (
	"bytes"
	"net/http"
	"strings"
)

// SniffLen is how many leading bytes Sniff reads.
const SniffLen = 512

// Sniff names a file's type from its first bytes: the containers the
// library keeps (MP4 and M4A by their ftyp box and brand, WebM and
// Matroska by the EBML header, MP3 by its ID3 tag or frame sync, Ogg, PDF,
// zip) first, then the standard library's rules (http.DetectContentType)
// for the rest. The name the admin gave the file plays no part: only the
// bytes decide how a browser will treat them.
func Sniff(head []byte) string {
	switch {
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		switch string(head[8:12]) {
		case "M4A ", "M4B ", "M4P ":
			return "audio/mp4"
		case "qt  ":
			return "video/quicktime"
		}
		return "video/mp4"
	case bytes.HasPrefix(head, []byte{0x1A, 0x45, 0xDF, 0xA3}):
		// The EBML header names its DocType within its first few dozen bytes.
		if bytes.Contains(head[:min(len(head), 64)], []byte("webm")) {
			return "video/webm"
		}
		return "video/x-matroska"
	case bytes.HasPrefix(head, []byte("ID3")):
		return "audio/mpeg"
	case len(head) >= 2 && head[0] == 0xFF && head[1]&0xE0 == 0xE0 && head[1]&0x06 != 0:
		// An MPEG audio frame: 11 sync bits, then a layer other than the
		// reserved 00 (which ADTS AAC uses).
		return "audio/mpeg"
	case bytes.HasPrefix(head, []byte("OggS")):
		return "audio/ogg"
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return "application/pdf"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return "application/zip"
	}
	t := http.DetectContentType(head)
	if base, _, _ := strings.Cut(t, ";"); base == "text/plain" {
		return "text/plain; charset=utf-8"
	}
	return t
}

// IsHTML reports whether a sniffed type is one a browser would render as a
// page (and so run its scripts on the site's origin).
func IsHTML(contentType string) bool {
	base, _, _ := strings.Cut(contentType, ";")
	base = strings.TrimSpace(strings.ToLower(base))
	return base == "text/html" || base == "application/xhtml+xml" || base == "image/svg+xml" || base == "text/xml"
}

// Inline reports whether a type is shown in the page rather than
// downloaded: audio, video and PDF; anything else is an attachment.
func Inline(contentType string) bool {
	base, _, _ := strings.Cut(contentType, ";")
	return strings.HasPrefix(base, "audio/") || strings.HasPrefix(base, "video/") || base == "application/pdf"
}
