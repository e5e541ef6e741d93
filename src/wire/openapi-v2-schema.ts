/**
 * The protobuf schema of an OpenAPI v2 document as kube-apiserver serves it for
 * `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`: gnostic's `openapi.v2`
 * package (github.com/google/gnostic openapiv2/OpenAPIv2.proto), every message with its field
 * names and numbers. One line per message: `name=number` is a string field, `name:type=number`
 * any other type, a leading `*` a repeated field; `oneof` first puts every field in the message's
 * one oneof (named `oneof`, as gnostic names it).
 */

const MESSAGES: Record<string, string> = {
  AdditionalPropertiesItem: 'oneof schema:Schema=1 boolean:bool=2',
  Any: 'value:google.protobuf.Any=1 yaml=2',
  ApiKeySecurity: 'type=1 name=2 in=3 description=4 *vendor_extension:NamedAny=5',
  BasicAuthenticationSecurity: 'type=1 description=2 *vendor_extension:NamedAny=3',
  BodyParameter: 'description=1 name=2 in=3 required:bool=4 schema:Schema=5 *vendor_extension:NamedAny=6',
  Contact: 'name=1 url=2 email=3 *vendor_extension:NamedAny=4',
  Default: '*additional_properties:NamedAny=1',
  Definitions: '*additional_properties:NamedSchema=1',
  Document:
    'swagger=1 info:Info=2 host=3 base_path=4 *schemes=5 *consumes=6 *produces=7 paths:Paths=8 definitions:Definitions=9 parameters:ParameterDefinitions=10 ' +
    'responses:ResponseDefinitions=11 *security:SecurityRequirement=12 security_definitions:SecurityDefinitions=13 *tags:Tag=14 external_docs:ExternalDocs=15 *vendor_extension:NamedAny=16',
  Examples: '*additional_properties:NamedAny=1',
  ExternalDocs: 'description=1 url=2 *vendor_extension:NamedAny=3',
  FileSchema: 'format=1 title=2 description=3 default:Any=4 *required=5 type=6 read_only:bool=7 external_docs:ExternalDocs=8 example:Any=9 *vendor_extension:NamedAny=10',
  FormDataParameterSubSchema: 'required:bool=1 in=2 description=3 name=4 allow_empty_value:bool=5 type=6 format=7 items:PrimitivesItems=8 collection_format=9 default:Any=10 maximum:double=11 exclusive_maximum:bool=12 minimum:double=13 exclusive_minimum:bool=14 max_length:int64=15 min_length:int64=16 pattern=17 max_items:int64=18 min_items:int64=19 unique_items:bool=20 *enum:Any=21 multiple_of:double=22 *vendor_extension:NamedAny=23',
  Header: 'type=1 format=2 items:PrimitivesItems=3 collection_format=4 default:Any=5 maximum:double=6 exclusive_maximum:bool=7 minimum:double=8 exclusive_minimum:bool=9 max_length:int64=10 min_length:int64=11 pattern=12 max_items:int64=13 min_items:int64=14 unique_items:bool=15 *enum:Any=16 multiple_of:double=17 description=18 *vendor_extension:NamedAny=19',
  HeaderParameterSubSchema: 'required:bool=1 in=2 description=3 name=4 type=5 format=6 items:PrimitivesItems=7 collection_format=8 default:Any=9 maximum:double=10 exclusive_maximum:bool=11 minimum:double=12 exclusive_minimum:bool=13 max_length:int64=14 min_length:int64=15 pattern=16 max_items:int64=17 min_items:int64=18 unique_items:bool=19 *enum:Any=20 multiple_of:double=21 *vendor_extension:NamedAny=22',
  Headers: '*additional_properties:NamedHeader=1',
  Info: 'title=1 version=2 description=3 terms_of_service=4 contact:Contact=5 license:License=6 *vendor_extension:NamedAny=7',
  ItemsItem: '*schema:Schema=1',
  JsonReference: '_ref=1 description=2',
  License: 'name=1 url=2 *vendor_extension:NamedAny=3',
  NamedAny: 'name=1 value:Any=2',
  NamedHeader: 'name=1 value:Header=2',
  NamedParameter: 'name=1 value:Parameter=2',
  NamedPathItem: 'name=1 value:PathItem=2',
  NamedResponse: 'name=1 value:Response=2',
  NamedResponseValue: 'name=1 value:ResponseValue=2',
  NamedSchema: 'name=1 value:Schema=2',
  NamedSecurityDefinitionsItem: 'name=1 value:SecurityDefinitionsItem=2',
  NamedString: 'name=1 value=2',
  NamedStringArray: 'name=1 value:StringArray=2',
  NonBodyParameter:
    'oneof header_parameter_sub_schema:HeaderParameterSubSchema=1 form_data_parameter_sub_schema:FormDataParameterSubSchema=2 query_parameter_sub_schema:QueryParameterSubSchema=3 path_parameter_sub_schema:PathParameterSubSchema=4',
  Oauth2AccessCodeSecurity: 'type=1 flow=2 scopes:Oauth2Scopes=3 authorization_url=4 token_url=5 description=6 *vendor_extension:NamedAny=7',
  Oauth2ApplicationSecurity: 'type=1 flow=2 scopes:Oauth2Scopes=3 token_url=4 description=5 *vendor_extension:NamedAny=6',
  Oauth2ImplicitSecurity: 'type=1 flow=2 scopes:Oauth2Scopes=3 authorization_url=4 description=5 *vendor_extension:NamedAny=6',
  Oauth2PasswordSecurity: 'type=1 flow=2 scopes:Oauth2Scopes=3 token_url=4 description=5 *vendor_extension:NamedAny=6',
  Oauth2Scopes: '*additional_properties:NamedString=1',
  Operation: '*tags=1 summary=2 description=3 external_docs:ExternalDocs=4 operation_id=5 *produces=6 *consumes=7 *parameters:ParametersItem=8 responses:Responses=9 *schemes=10 deprecated:bool=11 *security:SecurityRequirement=12 *vendor_extension:NamedAny=13',
  Parameter: 'oneof body_parameter:BodyParameter=1 non_body_parameter:NonBodyParameter=2',
  ParameterDefinitions: '*additional_properties:NamedParameter=1',
  ParametersItem: 'oneof parameter:Parameter=1 json_reference:JsonReference=2',
  PathItem: '_ref=1 get:Operation=2 put:Operation=3 post:Operation=4 delete:Operation=5 options:Operation=6 head:Operation=7 patch:Operation=8 *parameters:ParametersItem=9 *vendor_extension:NamedAny=10',
  PathParameterSubSchema: 'required:bool=1 in=2 description=3 name=4 type=5 format=6 items:PrimitivesItems=7 collection_format=8 default:Any=9 maximum:double=10 exclusive_maximum:bool=11 minimum:double=12 exclusive_minimum:bool=13 max_length:int64=14 min_length:int64=15 pattern=16 max_items:int64=17 min_items:int64=18 unique_items:bool=19 *enum:Any=20 multiple_of:double=21 *vendor_extension:NamedAny=22',
  Paths: '*vendor_extension:NamedAny=1 *path:NamedPathItem=2',
  PrimitivesItems: 'type=1 format=2 items:PrimitivesItems=3 collection_format=4 default:Any=5 maximum:double=6 exclusive_maximum:bool=7 minimum:double=8 exclusive_minimum:bool=9 max_length:int64=10 min_length:int64=11 pattern=12 max_items:int64=13 min_items:int64=14 unique_items:bool=15 *enum:Any=16 multiple_of:double=17 *vendor_extension:NamedAny=18',
  Properties: '*additional_properties:NamedSchema=1',
  QueryParameterSubSchema: 'required:bool=1 in=2 description=3 name=4 allow_empty_value:bool=5 type=6 format=7 items:PrimitivesItems=8 collection_format=9 default:Any=10 maximum:double=11 exclusive_maximum:bool=12 minimum:double=13 exclusive_minimum:bool=14 max_length:int64=15 min_length:int64=16 pattern=17 max_items:int64=18 min_items:int64=19 unique_items:bool=20 *enum:Any=21 multiple_of:double=22 *vendor_extension:NamedAny=23',
  Response: 'description=1 schema:SchemaItem=2 headers:Headers=3 examples:Examples=4 *vendor_extension:NamedAny=5',
  ResponseDefinitions: '*additional_properties:NamedResponse=1',
  ResponseValue: 'oneof response:Response=1 json_reference:JsonReference=2',
  Responses: '*response_code:NamedResponseValue=1 *vendor_extension:NamedAny=2',
  Schema:
    '_ref=1 format=2 title=3 description=4 default:Any=5 multiple_of:double=6 maximum:double=7 exclusive_maximum:bool=8 minimum:double=9 exclusive_minimum:bool=10 max_length:int64=11 min_length:int64=12 pattern=13 ' +
    'max_items:int64=14 min_items:int64=15 unique_items:bool=16 max_properties:int64=17 min_properties:int64=18 *required=19 *enum:Any=20 additional_properties:AdditionalPropertiesItem=21 type:TypeItem=22 ' +
    'items:ItemsItem=23 *all_of:Schema=24 properties:Properties=25 discriminator=26 read_only:bool=27 xml:Xml=28 external_docs:ExternalDocs=29 example:Any=30 *vendor_extension:NamedAny=31',
  SchemaItem: 'oneof schema:Schema=1 file_schema:FileSchema=2',
  SecurityDefinitions: '*additional_properties:NamedSecurityDefinitionsItem=1',
  SecurityDefinitionsItem:
    'oneof basic_authentication_security:BasicAuthenticationSecurity=1 api_key_security:ApiKeySecurity=2 oauth2_implicit_security:Oauth2ImplicitSecurity=3 ' +
    'oauth2_password_security:Oauth2PasswordSecurity=4 oauth2_application_security:Oauth2ApplicationSecurity=5 oauth2_access_code_security:Oauth2AccessCodeSecurity=6',
  SecurityRequirement: '*additional_properties:NamedStringArray=1',
  StringArray: '*value=1',
  Tag: 'name=1 description=2 external_docs:ExternalDocs=3 *vendor_extension:NamedAny=4',
  TypeItem: '*value=1',
  VendorExtension: '*additional_properties:NamedAny=1',
  Xml: 'name=1 namespace=2 prefix=3 attribute:bool=4 wrapped:bool=5 *vendor_extension:NamedAny=6',
};

export type OpenApiV2FieldType = 'string' | 'bool' | 'int64' | 'double' | string;

export interface OpenApiV2Field {
  /** The proto field name (snake_case). */
  name: string;
  no: number;
  /** A scalar type, or a message name (`Schema`, `google.protobuf.Any` …). */
  type: OpenApiV2FieldType;
  repeated: boolean;
}

export interface OpenApiV2Message {
  /** Fields in number order (the order Go's proto.Marshal writes them). */
  fields: OpenApiV2Field[];
  /** Whether every field is a member of the message's one oneof. */
  oneof: boolean;
}

let parsed: Map<string, OpenApiV2Message> | undefined;

/** The messages of package `openapi.v2` by name. */
export function openApiV2Messages(): Map<string, OpenApiV2Message> {
  if (parsed) return parsed;
  parsed = new Map();
  for (const [name, line] of Object.entries(MESSAGES)) {
    const words = line.split(' ');
    const oneof = words[0] === 'oneof';
    const fields = (oneof ? words.slice(1) : words).map((w) => {
      const m = /^(\*?)([a-z_0-9]+)(?::([A-Za-z0-9_.]+))?=(\d+)$/.exec(w);
      if (!m) throw new Error(`openapi.v2 ${name}: bad field ${w}`);
      return { name: m[2]!, no: Number(m[4]), type: m[3] ?? 'string', repeated: m[1] === '*' };
    });
    parsed.set(name, { fields: fields.sort((a, b) => a.no - b.no), oneof });
  }
  return parsed;
}

/**
 * The schema as a protobufjs JSON descriptor (`protobuf.Root.fromJSON(…)`), with the one message
 * of google/protobuf/any.proto it refers to, field names as in the .proto: for decoding the
 * served bytes in tests and tools.
 */
export function openApiV2Descriptor(): Record<string, unknown> {
  const v2: Record<string, unknown> = {};
  for (const [name, message] of openApiV2Messages()) {
    const fields: Record<string, unknown> = {};
    for (const f of message.fields) fields[f.name] = { type: f.type, id: f.no, ...(f.repeated ? { rule: 'repeated' } : {}) };
    v2[name] = { fields, ...(message.oneof ? { oneofs: { oneof: { oneof: message.fields.map((f) => f.name) } } } : {}) };
  }
  const any = { Any: { fields: { typeUrl: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } } };
  return { nested: { openapi: { nested: { v2: { nested: v2 } } }, google: { nested: { protobuf: { nested: any } } } } };
}

