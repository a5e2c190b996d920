package library

import (
	"net/url"
	"regexp"
	"strings"
)

var (
	youTubeID = regexp.MustCompile(`^[A-Za-z0-9_-]{11}$`)
	vimeoID   = regexp.MustCompile(`^[0-9]{1,12}$`)
	vimeoHash = regexp.MustCompile(`^[0-9a-f]{6,20}$`)
)

// EmbedURL is the privacy-enhanced player of a YouTube or Vimeo video link
// (youtube-nocookie.com, player.vimeo.com with dnt=1), which sets no
// tracking cookie until the member plays it; "" for any other link. Only
// the video's id (and an unlisted Vimeo video's hash) is carried over, so
// nothing else of the admin's link reaches the embedded page.
func EmbedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch host {
	case "youtube.com", "m.youtube.com", "youtube-nocookie.com":
		id := ""
		switch {
		case len(parts) == 1 && parts[0] == "watch":
			id = u.Query().Get("v")
		case len(parts) == 2 && (parts[0] == "embed" || parts[0] == "shorts" || parts[0] == "live" || parts[0] == "v"):
			id = parts[1]
		}
		return youTube(id)
	case "youtu.be":
		if len(parts) == 1 {
			return youTube(parts[0])
		}
	case "vimeo.com", "player.vimeo.com":
		if len(parts) >= 1 && parts[0] == "video" {
			parts = parts[1:]
		}
		if len(parts) == 0 || !vimeoID.MatchString(parts[0]) {
			return ""
		}
		hash := u.Query().Get("h")
		if len(parts) == 2 {
			hash = parts[1]
		}
		out := "https://player.vimeo.com/video/" + parts[0] + "?dnt=1"
		if vimeoHash.MatchString(hash) {
			out += "&h=" + hash
		}
		return out
	}
	return ""
}

func youTube(id string) string {
	if !youTubeID.MatchString(id) {
		return ""
	}
	return "https://www.youtube-nocookie.com/embed/" + id
}
