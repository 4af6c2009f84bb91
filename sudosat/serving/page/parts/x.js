import {edge} from "./shapes.js";

export default edge({word: "x", label: "X (sum 10)", letter: "X"});
