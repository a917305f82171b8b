import type { Plugin } from 'vite'

/**
 * With STORY_ORDER=reverse, reverses each story file's `__namedExportsOrder`
 * before Storybook turns its stories into tests (Storybook orders stories, and
 * so the tests, by it). Running the stories in both orders shows that no story
 * depends on what ran before it.
 */
export function storyOrder(): Plugin {
  return {
    name: 'story-order',
    enforce: 'pre',
    transform(code, id) {
      if (process.env.STORY_ORDER !== 'reverse' || !/\.stories\.tsx$/.test(id)) return undefined
      const declared = /export const __namedExportsOrder = (\[[^\]]*\])/.exec(code)
      if (declared?.[1] === undefined) throw new Error(`${id} declares no __namedExportsOrder to reverse`)
      const names = JSON.parse(declared[1].replaceAll("'", '"')) as string[]
      return code.replace(declared[0], `export const __namedExportsOrder = ${JSON.stringify(names.reverse())}`)
    },
  }
}
