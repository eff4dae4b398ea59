import { revisionOf, sha256Hex } from '../revision';

describe('revisionOf', () => {
  // Expected values from the server: jupyter_mcp_lab.core.revision.revision_of.
  it.each([
    ['', 'rev-e3b0c44298fc'],
    ['abc', 'rev-ba7816bf8f01'],
    ['# Notes\n\nalpha line\n', 'rev-26757caab611'],
    ['héllo wörld — ✓ 😀\n', 'rev-f4690792f51a'],
    ['x'.repeat(1000), 'rev-44f8354494a5']
  ])('matches the server for %j', (text, revision) => {
    expect(revisionOf(text)).toBe(revision);
  });

  // Lengths around the padding boundaries of a 64-byte block (hashlib.sha256).
  it.each([
    [55, '9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318'],
    [56, 'b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a'],
    [63, '7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34'],
    [64, 'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb'],
    [65, '635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0'],
    [119, '31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb'],
    [120, '2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c'],
    [
      1000003,
      'cf5f310cac13bb0f1de288d09940e8ee441e8d5d88b0fd4ec6021c405fda8c8c'
    ]
  ])('hashes %i bytes', (length, hex) => {
    expect(sha256Hex(new TextEncoder().encode('a'.repeat(length)))).toBe(hex);
  });
});
