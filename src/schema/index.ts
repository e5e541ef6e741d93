/** The API schema: types of the built-in kinds, their patch and list/map markers, defaults. */
export { Schema, type SchemaData } from './schema';
export {
  elementType,
  fieldType,
  keepsUnknownFields,
  listMapKeys,
  listType,
  mapType,
  patchMergeKey,
  patchStrategies,
  patchStrategy,
  type ListType,
  type MapType,
  type NodeType,
  type SchemaNode,
  type SchemaNodeData,
} from './schema-node';
export { strategicMergePatch, StrategicMergePatchError } from './strategic-merge-patch';
export { pruneUnknownFields } from './unknown-fields';
export { crdDefinitionName, crdSchema, structuralNode } from './crd-schema';
export { applyStructuralDefaults } from './structural-defaults';
export { customResourceValidator, type CustomResourceValidator } from './crd-validation';
export { celValidator, type CelValidator } from './cel-validator';
export { loadCelLibrary } from './cel-module';
export { crdValidationRuleErrors } from './crd-rule-validation';
export { FieldSet, pathString } from './field-set';
export { applyConfiguration, managedFieldsAfterUpdate, type ApplyWrite, type UpdateWrite } from './field-manager';
export { TypedValueError, valueFieldSet } from './value-field-set';
export { zeroObject } from './zero-object';
export { withObjectMeta } from './with-object-meta';
