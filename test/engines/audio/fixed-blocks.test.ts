import { describe, expect, it } from 'vitest'
import { FixedBlocks } from '../../../src/engines/audio/fixed-blocks'

/** The blocks `FixedBlocks` hands out for `chunks`, each copied (the block buffer is reused). */
function blocksOf(blockLength: number, chunks: Int16Array[]): number[][] {
  const blocks = new FixedBlocks<Int16Array>(new Int16Array(blockLength))
  const seen: number[][] = []
  for (const chunk of chunks) blocks.push(chunk, (block) => seen.push([...block]))
  return seen
}

/** 0, 1, 2, … cut at the given lengths. */
function counting(lengths: number[]): Int16Array[] {
  let next = 0
  return lengths.map((length) => Int16Array.from({ length }, () => next++))
}

describe('FixedBlocks', () => {
  it('hands out whole blocks in order, whatever lengths the samples arrive in, and keeps a partial one for the next push', () => {
    const expected = [
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]
    expect(blocksOf(4, counting([12]))).toEqual(expected)
    expect(blocksOf(4, counting([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]))).toEqual(expected)
    expect(blocksOf(4, counting([3, 0, 5, 0, 0, 4, 1]))).toEqual(expected)
    // 13 samples: the 13th waits for more.
    expect(blocksOf(4, counting([7, 6]))).toEqual(expected)
    expect(blocksOf(4, counting([7, 6, 3]))).toEqual([...expected, [12, 13, 14, 15]])
  })

  it('gives nothing for empty pushes or fewer samples than a block', () => {
    expect(blocksOf(4, counting([0, 0, 3, 0]))).toEqual([])
  })

  it('keeps each instance its own: two streams cut at different places do not mix', () => {
    const one = new FixedBlocks<Int16Array>(new Int16Array(3))
    const other = new FixedBlocks<Int16Array>(new Int16Array(3))
    const seen: string[] = []
    one.push(Int16Array.from([1, 2]), (block) => seen.push(`one ${[...block].join(',')}`))
    other.push(Int16Array.from([7]), (block) => seen.push(`other ${[...block].join(',')}`))
    one.push(Int16Array.from([3, 4]), (block) => seen.push(`one ${[...block].join(',')}`))
    other.push(Int16Array.from([8, 9]), (block) => seen.push(`other ${[...block].join(',')}`))
    expect(seen).toEqual(['one 1,2,3', 'other 7,8,9'])
  })

  it('cuts random lengths of a long stream into exactly its whole blocks', () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const lengths = Array.from({ length: 500 }, () => Math.floor(random() * 700))
    const total = lengths.reduce((sum, length) => sum + length, 0)
    const blocks = blocksOf(320, counting(lengths))
    expect(blocks).toHaveLength(Math.floor(total / 320))
    expect(blocks.flat()).toEqual(Array.from({ length: blocks.length * 320 }, (_, index) => (index << 16) >> 16))
  })
})
