package services

import (
	"io"
	"log/slog"
	"reflect"
	"testing"

	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/store/storetest"
)

// A service added to Set but not built by New would reach the handler as
// nil, and the handler no longer builds a missing one: every field is set.
func TestNewLeavesNoServiceUnbuilt(t *testing.T) {
	dir := t.TempDir()
	cfg, err := config.Load(func(k string) string {
		if k == "TRIBE_DATA_DIR" {
			return dir
		}
		return ""
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	set := New(cfg, storetest.Open(t, "", dir), site, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer set.Close()
	v := reflect.ValueOf(set).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			t.Errorf("services.New left %s nil", v.Type().Field(i).Name)
		}
	}
}
