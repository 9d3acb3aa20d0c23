package main

import (
	"bytes"
	"encoding/json"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// plainJSONConverter is the SDK's json/plain converter, writing without HTML escapes (`<` as
// `<`, not `\u003c`), as JSON.stringify does: the payload is as big as the kernel measured it.
type plainJSONConverter struct{ converter.JSONPayloadConverter }

func (*plainJSONConverter) ToPayload(value any) (*commonpb.Payload, error) {
	var buf bytes.Buffer
	encoder := json.NewEncoder(&buf)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		return nil, err
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return &commonpb.Payload{
		Metadata: map[string][]byte{converter.MetadataEncoding: []byte(converter.MetadataEncodingJSON)},
		Data:     data,
	}, nil
}
