import {line} from "./shapes.js";

export default line({word: "whispers", label: "German whispers", colour: "#3cb043", width: 0.22});
