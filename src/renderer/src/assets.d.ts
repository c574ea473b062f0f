/** Stylesheets are bundled by Vite; importing one only adds it to the page. */
declare module '*.css'

/** A file built by Vite as a worker bundle, imported as its URL (an AudioWorklet module). */
declare module '*?worker&url' {
  const url: string
  export default url
}
