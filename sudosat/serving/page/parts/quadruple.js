import {corner} from "./shapes.js";

export default corner({word: "quadruple", label: "Quadruple"});
