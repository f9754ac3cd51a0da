/** The gRPC kind's file parser: a protoset is checked and described before it is kept. */
export { describeProtoset as describeFile } from './protoset.ts';
